package org.leafid.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code leaf.http.api-docs}: off by default, the OpenAPI description and Swagger UI then unknown paths; on,
 * both answer, and neither way does springdoc warn at the start.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApiDocsSwitchTest {

    @TempDir
    Path dataDir;

    @Test
    void onAnswersBothAndTheStartLogsNoSpringdocWarning(CapturedOutput output) {
        try (ConfigurableApplicationContext server = start("--leaf.http.api-docs=yes")) {
            Http http = http(server);
            assertThat(http.get("/v3/api-docs").statusCode()).isEqualTo(200);
            assertThat(http.get("/swagger-ui/index.html").statusCode()).isEqualTo(200);
            assertThat(http.get("/").body()).contains("<a id=\"api-docs\" href=\"/swagger-ui.html\">");
        }
        assertThat(output.toString()).doesNotContain("SpringDoc", "springdoc.api-docs.enabled",
                "springdoc.swagger-ui.enabled");
    }

    @Test
    void offByDefaultTheDescriptionAndSwaggerUiAreUnknownPaths(CapturedOutput output) {
        assertOff(output);
    }

    @Test
    void offWhenSetSoToo(CapturedOutput output) {
        assertOff(output, "--leaf.http.api-docs=off");
    }

    private void assertOff(CapturedOutput output, String... arguments) {
        try (ConfigurableApplicationContext server = start(arguments)) {
            Http http = http(server);
            for (String path : new String[] {"/v3/api-docs", "/swagger-ui.html", "/swagger-ui/index.html"}) {
                assertThat(http.get(path).statusCode()).as(path).isEqualTo(404);
            }
            assertThat(http.get("/api/snowflake/get/k").statusCode()).isEqualTo(200);
            assertThat(http.get("/").body()).as("the status page links no missing page").doesNotContain("api-docs");
        }
        assertThat(output.toString()).doesNotContain("SpringDoc");
    }

    private ConfigurableApplicationContext start(String... extra) {
        String[] arguments = new String[extra.length + 4];
        arguments[0] = "--server.port=0";
        arguments[1] = "--leaf.snowflake.port=18099";
        arguments[2] = "--leaf.data-dir=" + dataDir;
        arguments[3] = "--leaf.segment.enable=false";
        System.arraycopy(extra, 0, arguments, 4, extra.length);
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments);
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
