package org.leafid.server.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.TcpProxy;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.segment.LeafAllocMisconfiguredException;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.fault.FullFaultSuite;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A start with a database in trouble, through the real server on a random port and the real
 * MariaDB: unreachable starts (snowflake works, readiness and 503s name the cause, a few log
 * lines, no stack trace, one line when it answers again); wrong credentials, an unknown database
 * or a missing {@code leaf_alloc} stop the start naming the key to fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseTroubleAtStartTest {

    private static final TestDatabase DATABASE = TestDatabase.get();
    /** The password in the url is shown as {@code ***} wherever the url is: to the admin, and in the log. */
    private static final String REFUSED = "leaf_alloc cannot be read: jdbc:mysql://127.0.0.1:%d/leaf?password=*** "
            + "refused the connection (Connection refused)";
    /** What an anonymous caller reads of the same: the store and the cause, not where it is. */
    private static final String REFUSED_ANONYMOUS = "leaf_alloc cannot be read: (the database of leaf.jdbc.url) "
            + "refused the connection (Connection refused)";
    private static final String TOKEN = "trouble-admin-token-0123456789-abcdefghij";

    /** The passwords of the url with every form Connector/J accepts (below). */
    private static final String[] SECRETS = {"FormAddress", "FormKeyValue", "FormUserInfo", "FormMfa"};

    @TempDir
    Path dataDir;

    @Test
    void deadPortStartsWithReadinessDownNamingTheCauseAndLogsAFewLinesWithoutStackTraces(CapturedOutput output)
            throws IOException {
        int deadPort = deadPort();
        String cause = REFUSED.formatted(deadPort);
        try (ConfigurableApplicationContext server = start("--leaf.jdbc.url=jdbc:mysql://127.0.0.1:" + deadPort
                + "/leaf?password=secret", "--leaf.segment.refresh-interval=1s")) {
            Http http = http(server);
            int logStart = output.length();

            assertThat(http.get("/api/snowflake/get/k").statusCode()).isEqualTo(200);
            HttpResponse<String> readiness = http.get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains(REFUSED_ANONYMOUS,
                    "segment IDs are refused with 503 until it answers").doesNotContain("secret", "127.0.0.1");
            assertThat(admin(http, "/actuator/health/readiness").body()).contains(cause).doesNotContain("secret");
            HttpResponse<String> id = http.get("/api/segment/get/x");
            assertThat(id.statusCode()).isEqualTo(503);
            assertThat(id.body()).contains("urn:leaf:problem:store-unavailable", "Tag 'x': " + REFUSED_ANONYMOUS,
                    "check leaf.jdbc.url").doesNotContain("127.0.0.1");
            assertThat(admin(http, "/api/segment/get/x").body()).contains("Tag 'x': " + cause);
            HttpResponse<String> cache = http.get("/api/segment/cache");
            assertThat(cache.statusCode()).isEqualTo(503);
            assertThat(cache.body()).contains(REFUSED_ANONYMOUS);
            assertThat(http.get("/").body()).contains(REFUSED_ANONYMOUS,
                    "id=\"data-source\">(the database of leaf.jdbc.url)<").doesNotContain("secret", "127.0.0.1");
            assertThat(admin(http, "/").body()).contains(cause, "id=\"data-source\">jdbc:mysql://127.0.0.1:" + deadPort
                    + "/leaf?password=***<").doesNotContain("secret");

            // Four refresh intervals: the tag list is retried every second, the log speaks once per interval.
            await().pollDelay(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(5)).until(() -> true);
            String log = output.toString().substring(logStart);
            List<String> lines = log.lines().filter(line -> line.contains("leaf_alloc cannot be read")).toList();
            assertThat(lines).hasSizeBetween(2, 7);
            assertThat(log).doesNotContain("\tat ", "Caused by", "ERROR");
        }
        assertThat(output.toString()).doesNotContain("DruidDataSource", "\tat com.mysql");
    }

    @Test
    void shardGetsAreRefusedWith503NotUnknownAppUntilTheAppListIsRead() throws IOException {
        int deadPort = deadPort();
        try (ConfigurableApplicationContext server = start("--leaf.jdbc.url=jdbc:mysql://127.0.0.1:" + deadPort
                + "/leaf", "--leaf.segment.enable=false", "--leaf.shard.enable=true")) {
            Http http = http(server);

            // Not known yet is not unknown: a client must try another server, not give up on the app.
            HttpResponse<String> id = http.get("/api/shard/get/7?gatePass=alice");
            assertThat(id.statusCode()).isEqualTo(503);
            assertThat(id.body()).contains("urn:leaf:problem:store-unavailable", "app list of id_alloc has not been read");
            assertThat(id.headers().firstValue("Retry-After")).isPresent();
            HttpResponse<String> readiness = http.get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains("shardApps", "has not been read yet");
        }
    }

    @Test
    void everyPasswordFormOfConnectorJIsHiddenOnThePagesTheProblemsAndTheLog(CapturedOutput output)
            throws IOException {
        int deadPort = deadPort();
        // One failover url holding each form: address=(…), (key=value), user:secret@ on a second host, MFA.
        String url = "jdbc:mysql://address=(host=127.0.0.1)(port=" + deadPort + ")(user=u)(password=FormAddress),"
                + "(host=127.0.0.1,port=" + deadPort + ",password=FormKeyValue),"
                + "u2:FormUserInfo@127.0.0.1:" + deadPort + "/leaf?password1=FormMfa1&password2=FormMfa2"
                + "&password3=FormMfa3&failOverReadOnly=false";
        try (ConfigurableApplicationContext server = start("--leaf.jdbc.url=" + url)) {
            Http http = http(server);
            HttpResponse<String> readiness = http.get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains("leaf_alloc cannot be read: (the database of leaf.jdbc.url)");
            HttpResponse<String> adminReadiness = admin(http, "/actuator/health/readiness");
            assertThat(adminReadiness.body())
                    .contains("leaf_alloc cannot be read: jdbc:mysql://(host=127.0.0.1,password=***");
            HttpResponse<String> id = http.get("/api/segment/get/x");
            assertThat(id.statusCode()).isEqualTo(503);
            assertThat(id.body()).contains("urn:leaf:problem:store-unavailable");
            HttpResponse<String> adminId = admin(http, "/api/segment/get/x");
            assertThat(adminId.body()).contains("urn:leaf:problem:store-unavailable", "u2:***@127.0.0.1");
            String page = http.get("/").body();
            String adminPage = admin(http, "/").body();
            assertThat(adminPage).contains("password1=***&amp;password2=***&amp;password3=***");
            for (String body : List.of(readiness.body(), id.body(), http.get("/api/segment/cache").body(), page,
                    adminReadiness.body(), adminId.body(), admin(http, "/api/segment/cache").body(), adminPage)) {
                assertThat(body).doesNotContain(SECRETS);
            }
        }
        assertThat(output.toString()).contains("leaf_alloc cannot be read: jdbc:mysql://").doesNotContain(SECRETS);
    }

    @Test
    void databaseThatComesBackMakesReadinessUpWithOneRecoveryLine(CapturedOutput output) throws IOException {
        String[] target = DATABASE.hostAndPort();
        try (TcpProxy proxy = new TcpProxy(target[0], Integer.parseInt(target[1]))) {
            proxy.cut();
            try (ConfigurableApplicationContext server = start("--leaf.jdbc.url=" + DATABASE.urlThrough(proxy),
                    "--leaf.jdbc.username=" + DATABASE.user(), "--leaf.jdbc.password=" + DATABASE.password(),
                    "--leaf.segment.refresh-interval=1s")) {
                Http http = http(server);
                HttpResponse<String> down = admin(http, "/actuator/health/readiness");
                assertThat(down.statusCode()).isEqualTo(503);
                assertThat(down.body()).contains("leaf_alloc cannot be read: jdbc:mysql://127.0.0.1:" + proxy.port());

                proxy.restore();
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                        .until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
                assertThat(http.get("/api/segment/get/leaf-segment-test").statusCode()).isIn(200, 404);
                // This server's lines only: another test's server in this JVM may recover at the same moment.
                String through = "127.0.0.1:" + proxy.port() + "/";
                assertThat(output.toString().lines()
                        .filter(line -> line.contains("answers again") && line.contains(through)))
                        .singleElement().asString().contains("INFO", "The database of leaf_alloc (jdbc:mysql://");
            }
        }
    }

    @FullFaultSuite
    @Test
    void failedBlockLoadWhileRunningIsShownWithItsTimeAndLoggedOncePerInterval(CapturedOutput output)
            throws IOException {
        String[] target = DATABASE.hostAndPort();
        String tag = DATABASE.newTag("trouble", 1, 5);
        try (TcpProxy proxy = new TcpProxy(target[0], Integer.parseInt(target[1]));
                ConfigurableApplicationContext server = start("--leaf.jdbc.url=" + DATABASE.urlThrough(proxy),
                        "--leaf.jdbc.username=" + DATABASE.user(), "--leaf.jdbc.password=" + DATABASE.password(),
                        "--leaf.segment.refresh-interval=30s")) {
            Http http = http(server);
            assertThat(http.get("/api/segment/get/" + tag).statusCode()).isEqualTo(200);
            int logStart = output.length();

            // With the database cut, the tag serves what its buffers hold (a few dozen at most), then 503.
            proxy.cut();
            HttpResponse<String> refused = http.get("/api/segment/get/" + tag);
            for (int i = 0; i < 1000 && refused.statusCode() == 200; i++) {
                refused = http.get("/api/segment/get/" + tag);
            }
            assertThat(refused.statusCode()).isEqualTo(503);
            // A load that outlasts leaf.segment.load-wait answers segment-not-ready; the failed one names the cause.
            // Bounded generously: on a loaded CI machine a load through the cut proxy can take its
            // connect and query timeouts (2 s + 5 s) before it fails and names the cause.
            refused = await().atMost(Duration.ofSeconds(25)).until(() -> http.get("/api/segment/get/" + tag),
                    response -> response.body().contains("urn:leaf:problem:store-unavailable"));
            assertThat(refused.statusCode()).isEqualTo(503);
            String cause = "no block could be reserved in leaf_alloc: jdbc:mysql://127.0.0.1:" + proxy.port();
            String anonymous = "no block could be reserved in leaf_alloc: (the database of leaf.jdbc.url)";
            assertThat(refused.body()).contains("Tag '" + tag + "': " + anonymous).doesNotContain(cause);
            // The admin reads where: the same refusal with the url (after a load that outlasts the wait, as above).
            HttpResponse<String> refusedToAdmin = await().atMost(Duration.ofSeconds(25)).until(
                    () -> admin(http, "/api/segment/get/" + tag),
                    response -> response.body().contains("urn:leaf:problem:store-unavailable"));
            assertThat(refusedToAdmin.body()).contains("Tag '" + tag + "': " + cause);
            // Retried every second while starved, logged once per refresh interval (30 s): one line, not one per try.
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> true);
            assertThat(admin(http, "/").body()).contains("last load failed: " + cause, "<span class=\"muted\">at 20");
            assertThat(http.get("/").body()).contains("last load failed: " + anonymous);
            assertThat(admin(http, "/api/segment/cache").body()).contains("\"lastFailedLoad\":\"20",
                    "\"lastLoadFailure\":\"Tag '" + tag + "': " + cause);
            assertThat(http.get("/api/segment/cache").body()).contains("\"lastLoadFailure\":\"Tag '" + tag + "': "
                    + anonymous);
            String log = output.toString().substring(logStart);
            assertThat(log.lines().filter(line -> line.contains("SegmentTagRefresher") && line.contains(cause)))
                    .hasSize(1);
            assertThat(log).doesNotContain("\tat ");

            proxy.restore();
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.get("/api/segment/get/" + tag).statusCode() == 200);
            assertThat(http.get("/").body()).contains("last failed load 20").doesNotContain("last load failed: ");
            await().atMost(Duration.ofSeconds(5)).until(() -> output.toString().substring(logStart).lines()
                    .filter(line -> line.contains("answers again")).count() == 1);
        }
    }

    @Test
    void accessDeniedStopsTheStartNamingUsernameAndPassword(CapturedOutput output) {
        assertRefused(SqlFailures.Kind.ACCESS_DENIED, output, "check leaf.jdbc.username and leaf.jdbc.password",
                "--leaf.jdbc.url=" + DATABASE.url(), "--leaf.jdbc.username=leaf_no_such_user",
                "--leaf.jdbc.password=wrong");
    }

    @Test
    void unknownDatabaseStopsTheStartNamingTheUrl(CapturedOutput output) {
        assertRefused(SqlFailures.Kind.UNKNOWN_DATABASE, output, "check the database name in leaf.jdbc.url",
                "--leaf.jdbc.url=" + otherDatabase("leaf_no_such_database_dbstatus"),
                "--leaf.jdbc.username=" + DATABASE.user(), "--leaf.jdbc.password=" + DATABASE.password());
    }

    @Test
    void missingLeafAllocStopsTheStartNamingTheScript(CapturedOutput output) throws Exception {
        String empty = databaseName() + "_empty";
        try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE DATABASE IF NOT EXISTS " + empty);
            statement.executeUpdate("DROP TABLE IF EXISTS " + empty + ".leaf_alloc");
        }
        try {
            assertRefused(SqlFailures.Kind.MISSING_TABLE, output, "create the table with sql/leaf_alloc.sql",
                    "--leaf.jdbc.url=" + otherDatabase(empty), "--leaf.jdbc.username=" + DATABASE.user(),
                    "--leaf.jdbc.password=" + DATABASE.password());
        } finally {
            try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("DROP DATABASE IF EXISTS " + empty);
            }
        }
    }

    private void assertRefused(SqlFailures.Kind kind, CapturedOutput output, String hint, String... arguments) {
        assertThatThrownBy(() -> start(arguments).close())
                .satisfies(e -> assertThat(causeOf(e)).isNotNull().satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(kind);
                    assertThat(refusal.getMessage())
                            .startsWith("Segment mode cannot start: leaf_alloc cannot be read: ").contains(hint);
                }));
        // Spring Boot's short report, not a stack trace, names the fix.
        assertThat(output.toString()).contains("APPLICATION FAILED TO START", hint, "Action:");
    }

    private static LeafAllocMisconfiguredException causeOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LeafAllocMisconfiguredException refusal) {
                return refusal;
            }
        }
        return null;
    }

    /** A port nothing listens on: bound, then closed again. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The test database's url with another database name. */
    private static String otherDatabase(String name) {
        Matcher m = urlParts();
        return m.group(1) + name + m.group(3);
    }

    private static String databaseName() {
        return urlParts().group(2);
    }

    private static Matcher urlParts() {
        Matcher m = Pattern.compile("^(jdbc:\\w+://[^/]+/)([^?;]*)(.*)$").matcher(DATABASE.url());
        assertThat(m.matches()).as("jdbc:<driver>://host:port/database: " + DATABASE.url()).isTrue();
        return m;
    }

    private ConfigurableApplicationContext start(String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.port=18097",
                "--leaf.data-dir=" + dataDir, "--leaf.jdbc.connect-timeout=1s", "--leaf.admin.token=" + TOKEN));
        arguments.addAll(List.of(extraArguments));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    /** A GET with the admin token, which shows where a failure is. */
    private static HttpResponse<String> admin(Http http, String path) {
        return http.send("GET", path, "Authorization", "Bearer " + TOKEN);
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
