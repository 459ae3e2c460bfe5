package org.leafid.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.client.LeafClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * When the bean is made and from which keys. No server answers here (a closed port): the bean is
 * used against real servers in leaf-server's LeafClientStarterTest.
 */
class LeafClientAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LeafClientAutoConfiguration.class));

    @Test
    void noServersNoClient() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(LeafClient.class);
            assertThat(context).doesNotHaveBean(LeafClientHealthIndicator.class);
        });
    }

    @Test
    void withoutLeafClientOnTheClassPathNoClientEvenWithServers() {
        runner.withClassLoader(new FilteredClassLoader(LeafClient.class))
                .withPropertyValues("leaf.client.servers=http://127.0.0.1:9")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("leafClient"));
    }

    @Test
    void serversMakeTheClientItsHealthAndMetersFromTheKeys() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("leaf.client.servers=http://127.0.0.1:9, http://127.0.0.1:10",
                        "leaf.client.max-wait=250ms", "leaf.client.max-batch=5000",
                        "leaf.client.prefetch-threshold=0.5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LeafClientProperties properties = context.getBean(LeafClientProperties.class);
                    assertThat(properties.maxWait()).isEqualTo(Duration.ofMillis(250));
                    assertThat(properties.maxBatch()).isEqualTo(5000);
                    assertThat(properties.requestTimeout()).isEqualTo(Duration.ofSeconds(2));
                    LeafClient client = context.getBean(LeafClient.class);
                    assertThat(client.servers()).extracting(server -> server.url())
                            .containsExactly("http://127.0.0.1:9", "http://127.0.0.1:10");
                    assertThat(context.getBean(LeafClientHealthIndicator.class).health().getStatus())
                            .as("no call failed yet").isEqualTo(Status.UP);
                    assertThat(context.getBean(MeterRegistry.class).find("leaf.client.servers.up").gauge().value())
                            .isEqualTo(2);
                });
    }

    @Test
    void aServerThatIsNotAUrlStopsTheStartNamingTheKey() {
        runner.withPropertyValues("leaf.client.servers=leaf-1:8080").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(LeafConfigurationException.class)
                    .hasMessageContaining("leaf.client.servers");
        });
    }
}
