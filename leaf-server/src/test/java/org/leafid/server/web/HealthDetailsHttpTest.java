package org.leafid.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health over HTTP: anonymous {@code /actuator/health} says UP or DOWN and nothing about the
 * database or the disk; the probes answer as before, readiness with its own components' details.
 */
class HealthDetailsHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void anonymousHealthHasNoDetailsWhileTheProbesKeepTheirs() {
        try (ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class)
                .run("--server.port=0", "--leaf.snowflake.port=18098", "--leaf.data-dir=" + dataDir,
                        "--leaf.snowflake.local.worker-id=7")) {
            Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));

            HttpResponse<String> health = http.get("/actuator/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"")
                    .doesNotContain("components", "details", "db", "diskSpace", "H2", "leaf-db");

            HttpResponse<String> liveness = http.get("/actuator/health/liveness");
            assertThat(liveness.statusCode()).isEqualTo(200);
            assertThat(liveness.body()).contains("\"status\":\"UP\"");

            HttpResponse<String> readiness = http.get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).isEqualTo(200);
            assertThat(readiness.body()).contains("\"segment\"", "\"workerId\"", "\"workerId\":7", "\"tags\":1")
                    .doesNotContain("diskSpace", "\"db\"", "leaf-db");
        }
    }
}
