package org.leafid.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code leaf.http.api-docs}: off by default, the OpenAPI description then an unknown path; on (read as every
 * switch, {@code yes} included), it answers and the status page links it.
 */
class ApiDocsSwitchTest {

    @TempDir
    Path dataDir;

    @Test
    void onAnswersAndTheStatusPageLinksIt() {
        try (ConfigurableApplicationContext server = start("--leaf.http.api-docs=yes")) {
            Http http = http(server);
            assertThat(http.get("/v3/api-docs").statusCode()).isEqualTo(200);
            assertThat(http.get("/v3/api-docs").body()).contains("\"openapi\"", "/api/snowflake/get/{key}");
            assertThat(http.get("/").body()).contains("<a id=\"api-docs\" href=\"/v3/api-docs\">");
        }
    }

    @Test
    void offByDefaultTheDescriptionIsAnUnknownPath() {
        assertOff();
    }

    @Test
    void offWhenSetSoToo() {
        assertOff("--leaf.http.api-docs=off");
    }

    @Test
    void aValueThatIsNotASwitchStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> start("--leaf.http.api-docs=sometimes").close())
                .hasStackTraceContaining("leaf.http.api-docs");
    }

    private void assertOff(String... arguments) {
        try (ConfigurableApplicationContext server = start(arguments)) {
            Http http = http(server);
            assertThat(http.get("/v3/api-docs").statusCode()).isEqualTo(404);
            assertThat(http.get("/v3/api-docs").body()).contains("urn:leaf:problem:not-found");
            assertThat(http.get("/api/snowflake/get/k").statusCode()).isEqualTo(200);
            assertThat(http.get("/").body()).as("the status page links no missing page").doesNotContain("api-docs");
        }
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
