package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.server.support.Http;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Snowflake through HTTP with the server's clock replaced by a fake one, and segment mode off:
 * a small step back is waited out, a large one is a 503, and the disabled mode says so.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"leaf.segment.enable=false", "leaf.snowflake.port=18082"})
class SnowflakeClockFaultHttpTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class FakeTime {
        /** Both the server's InstantSource and its Sleeper: waiting moves this clock. */
        @Bean
        @Primary
        FakeClock fakeClock() {
            return new FakeClock(System.currentTimeMillis());
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    FakeClock clock;

    private Http http;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        Path dataDir = Files.createTempDirectory("leaf-clock-test");
        registry.add("leaf.data-dir", dataDir::toString);
    }

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void smallStepBackIsWaitedOutWithoutRepeating() {
        long before = http.getId("/api/snowflake/get/k");

        clock.stepBack(3);
        long after = http.getId("/api/snowflake/get/k");

        assertThat(after).isGreaterThan(before);
    }

    @Test
    void largeStepBackIs503UntilTheClockCatchesUp() {
        long before = http.getId("/api/snowflake/get/k");

        clock.stepBack(10);
        HttpResponse<String> refused = http.get("/api/snowflake/get/k");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.body()).contains("urn:leaf:problem:clock-moved-backwards").contains("10 ms");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");

        clock.advance(11);
        assertThat(http.getId("/api/snowflake/get/k")).isGreaterThan(before);
    }

    @Test
    void disabledSegmentModeIs404SayingSo() {
        HttpResponse<String> response = http.get("/api/segment/get/leaf-segment-test");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("urn:leaf:problem:mode-disabled").contains("leaf.segment.enable");
    }
}
