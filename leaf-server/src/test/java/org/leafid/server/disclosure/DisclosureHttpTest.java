package org.leafid.server.disclosure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A server whose database cannot be used, called black-box by an anonymous client and by the admin:
 * the 503 body, readiness, the status page and the segment cache view name the store and the cause,
 * never the password written into the url (PostgreSQL's driver takes {@code user:pw@host} for a host
 * name and quotes it), the host or the database; the admin token shows where, still without the
 * password. (Wrong admin tokens are limited per client address: AdminWrongTokenLimitTest.)
 */
class DisclosureHttpTest {

    private static final String TOKEN = "disclosure-admin-token-0123456789-abcdefghij";
    private static final String PASSWORD = "Hunter2pgSecret";

    @TempDir
    Path dataDir;

    @Test
    void noAnonymousAnswerShowsTheUrlsPasswordHostOrDatabase() {
        String url = "jdbc:postgresql://leaf:" + PASSWORD + "@127.0.0.1:5432/leaf_private_orders?connectTimeout=2";
        try (ConfigurableApplicationContext server = start(url)) {
            Http http = new Http(port(server));
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    http.get("/actuator/health/readiness").body().contains("segment"));

            for (String path : List.of("/api/segment/get/leaf-segment-test", "/actuator/health/readiness",
                    "/actuator/health", "/", "/api/segment/cache")) {
                String body = http.get(path).body();
                assertThat(body).as(path).doesNotContain(PASSWORD, "127.0.0.1", "leaf_private_orders", "5432");
                String admin = http.send("GET", path, "Authorization", "Bearer " + TOKEN).body();
                assertThat(admin).as(path + " to the admin").doesNotContain(PASSWORD);
            }
            HttpResponse<String> refused = http.get("/api/segment/get/leaf-segment-test");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("store-unavailable", "leaf.jdbc.url");
            assertThat(http.send("GET", "/actuator/health/readiness", "Authorization", "Bearer " + TOKEN).body())
                    .contains("127.0.0.1");
        }
    }

    private ConfigurableApplicationContext start(String jdbcUrl) {
        return new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                "--leaf.snowflake.enable=false", "--leaf.jdbc.url=" + jdbcUrl, "--leaf.jdbc.username=leaf",
                "--leaf.data-dir=" + dataDir, "--leaf.admin.token=" + TOKEN);
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
