package org.leafid.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.client.LeafClientAutoConfiguration;
import org.leafid.autoconfigure.client.LeafClientHealthIndicator;
import org.leafid.client.LeafClient;
import org.leafid.client.LeafUnknownKeyException;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application with the starter and leaf-client, configured by {@code leaf.client.servers} only,
 * calling the real server (started here on a random port, on the test database): its component
 * gets IDs from the injected bean, the health indicator and the meters report, and the bean is
 * closed with the context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LeafClientStarterTest {

    private static final TestDatabase DATABASE = TestDatabase.get();
    /** Inserted before the server starts, which reads the tag list then. */
    private static final String TAG = DATABASE.newTag("client-starter", 0, 1000);

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "client-starter");
        registry.add("leaf.snowflake.port", () -> "18091");
        registry.add("leaf.snowflake.local.worker-id", () -> "11");
    }

    @Test
    void theBeanServesAnApplicationFromTheServerWithHealthAndMeters() throws Exception {
        String tag = TAG;
        AtomicReference<LeafClient> closedWithTheContext = new AtomicReference<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LeafClientAutoConfiguration.class))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withUserConfiguration(OrderApplication.class)
                .withPropertyValues("leaf.client.servers=http://127.0.0.1:" + port, "leaf.client.max-wait=10s",
                        "orders.tag=" + tag)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LeafClient leaf = context.getBean(LeafClient.class);
                    closedWithTheContext.set(leaf);
                    OrderApplication.OrderNumbers orders =
                            context.getBean(OrderApplication.OrderNumbers.class);

                    long[] ids = takeAtOnce(4, 50_000, orders);
                    Arrays.sort(ids);
                    for (int i = 1; i < ids.length; i++) {
                        assertThat(ids[i]).as("no ID twice").isNotEqualTo(ids[i - 1]);
                    }
                    assertThat(ids).hasSize(200_000);
                    assertThat(ids[ids.length - 1]).isLessThanOrEqualTo(DATABASE.maxId(tag));
                    assertThat(leaf.snowflake().nextId()).isPositive();
                    assertThatThrownBy(() -> leaf.segment("client-starter-missing").nextId())
                            .isInstanceOf(LeafUnknownKeyException.class);

                    assertThat(context.getBean(LeafClientHealthIndicator.class).health().getStatus())
                            .isEqualTo(Status.UP);
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.find("leaf.client.fetches").tag("mode", "segment").tag("outcome", "ok")
                            .counter().count()).isPositive();
                    assertThat(meters.find("leaf.client.fetches").tag("outcome", "refused").counter().count())
                            .isEqualTo(1);
                    assertThat(meters.find("leaf.client.buffered").tag("key", tag).gauge()).isNotNull();
                    assertThat(meters.find("leaf.client.servers.up").gauge().value()).isEqualTo(1);
                });
        assertThatThrownBy(() -> closedWithTheContext.get().snowflake()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    private static long[] takeAtOnce(int threads, int perThread, OrderApplication.OrderNumbers orders)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(pool.submit(() -> {
                long[] ids = new long[perThread];
                for (int i = 0; i < perThread; i++) {
                    ids[i] = orders.next();
                }
                return ids;
            }));
        }
        long[] all = new long[threads * perThread];
        for (int t = 0; t < threads; t++) {
            System.arraycopy(results.get(t).get(2, TimeUnit.MINUTES), 0, all, t * perThread, perThread);
        }
        pool.shutdown();
        return all;
    }
}
