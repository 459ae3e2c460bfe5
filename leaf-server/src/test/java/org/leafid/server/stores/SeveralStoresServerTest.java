package org.leafid.server.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.segment.Stripes;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two servers on two stores (the local MariaDB and PostgreSQL, the first behind a TCP proxy): IDs,
 * batches, ranges and a format from whichever store answers, the first store cut off and back under
 * load with no 503, a tag created in both, the stores on the status page and in the meters; a server
 * with the stores in another order, or with {@code leaf.jdbc.url} as well, refused at start.
 */
class SeveralStoresServerTest {

    private static final String TOKEN = "several-stores-admin-token-0123456789abcdef";
    private static final long WIDTH = 100_000;
    private static final String TAG = "several";

    @TempDir
    Path dataDir;

    private static TestDatabase fresh(TestDatabase base, String suffix) {
        base.derived(suffix).drop();
        TestDatabase database = base.derived(suffix);
        database.insertTag(TAG, 1, 100);
        return database;
    }

    @Test
    void twoServersOnTwoStoresServeThroughAStoreCutOffAndRepeatNothing() throws Exception {
        TestDatabase mariadb = fresh(TestDatabase.get(), "several0");
        TestDatabase postgres = fresh(TestDatabase.postgres(), "several1");
        String[] target = mariadb.hostAndPort();
        try (TcpProxy proxy = new TcpProxy(target[0], Integer.parseInt(target[1]));
                ConfigurableApplicationContext a = start("a", mariadb.urlThrough(proxy), mariadb, postgres);
                ConfigurableApplicationContext b = start("b", mariadb.urlThrough(proxy), mariadb, postgres)) {
            List<Http> servers = List.of(http(a), http(b));
            List<List<Long>> issued = List.of(new ArrayList<>(), new ArrayList<>());
            take(servers, issued, 20);
            proxy.cut();
            take(servers, issued, 40);
            String page = servers.get(0).send("GET", "/", "Authorization", "Bearer " + TOKEN).body();
            assertThat(page).contains("2 stores (leaf.jdbc.stores)", "stores[0]", "DOWN", "stores[1]");
            assertThat(servers.get(0).get("/actuator/prometheus").body())
                    .contains("leaf_store_up{store=\"stores[0]\"} 0.0", "leaf_store_up{store=\"stores[1]\"} 1.0");
            assertThat(servers.get(0).get("/actuator/health").body()).contains("\"status\":\"UP\"");
            HttpResponse<String> storesHealth = servers.get(0).get("/actuator/health/stores");
            assertThat(storesHealth.statusCode()).as(storesHealth.headers().map().toString()).isEqualTo(200);
            String anonymous = storesHealth.body();
            assertThat(anonymous).contains("\"status\":\"UP\"").doesNotContain("stores[0]", "DOWN");
            String toAdmin = servers.get(0).send("GET", "/actuator/health/stores", "Authorization", "Bearer " + TOKEN)
                    .body();
            assertThat(toAdmin).contains("\"status\":\"UP\"", "\"stores[0]\":\"DOWN: ", "\"stores[1]\":\"UP\"");
            proxy.restore();
            Thread.sleep(2_500); // the probe finds store 0 again within a second
            take(servers, issued, 20);

            Set<Long> all = new HashSet<>();
            Stripes first = new Stripes(0, WIDTH, 2, 0);
            int fromFirst = 0;
            int fromSecond = 0;
            for (List<Long> ids : issued) {
                for (int i = 0; i < ids.size(); i++) {
                    assertThat(all.add(ids.get(i))).as("ID %d twice", ids.get(i)).isTrue();
                    if (i > 0) {
                        assertThat(ids.get(i)).as("one server's IDs increase").isGreaterThan(ids.get(i - 1));
                    }
                    if (first.owns(ids.get(i))) {
                        fromFirst++;
                    } else {
                        fromSecond++;
                    }
                }
            }
            assertThat(all).hasSize(2 * 80 * 50);
            assertThat(fromFirst).as("IDs of store 0").isPositive();
            assertThat(fromSecond).as("IDs of store 1, while store 0 was cut off").isPositive();

            HttpResponse<String> ranges = servers.get(1).send("GET", "/api/segment/get/" + TAG + "?count=300",
                    "Accept", "application/vnd.leaf.ranges+json");
            assertThat(ranges.statusCode()).isEqualTo(200);
            assertThat(ranges.body()).contains("\"ranges\"");
            assertThat(servers.get(1).get("/api/format/get/o?count=3").body().lines()).hasSize(3);

            HttpResponse<String> created = admin(servers.get(0), "POST", "/api/admin/tags",
                    "{\"tag\":\"made-in-both\",\"step\":50}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(mariadb.number("SELECT COUNT(*) FROM leaf_alloc WHERE biz_tag = 'made-in-both'")).isOne();
            assertThat(postgres.number("SELECT COUNT(*) FROM leaf_alloc WHERE biz_tag = 'made-in-both'")).isOne();
        }
    }

    @Test
    void aServerWithTheStoresInAnotherOrderIsRefusedAtStart() {
        TestDatabase mariadb = fresh(TestDatabase.get(), "several0");
        TestDatabase postgres = fresh(TestDatabase.postgres(), "several1");
        try (ConfigurableApplicationContext first = start("a", mariadb.url(), mariadb, postgres)) {
            assertThat(http(first).getId("/api/segment/get/" + TAG)).isPositive();
        }
        assertThatThrownBy(() -> start("b", postgres.url(), postgres, mariadb).close())
                .hasStackTraceContaining("leaf.jdbc.stores[0].url")
                .hasStackTraceContaining("the stores are listed in another order");
    }

    @Test
    void aServerWithBothUrlAndStoresIsRefusedNamingBoth() {
        TestDatabase mariadb = fresh(TestDatabase.get(), "several0");
        TestDatabase postgres = fresh(TestDatabase.postgres(), "several1");
        List<String> arguments = arguments("c", mariadb.url(), mariadb, postgres);
        arguments.add("--leaf.jdbc.url=" + mariadb.url());
        assertThatThrownBy(() -> new SpringApplicationBuilder(LeafServerApplication.class)
                .run(arguments.toArray(String[]::new)).close())
                .hasStackTraceContaining("leaf.jdbc.url and leaf.jdbc.stores[0].url are both set");
    }

    /** Batches of 50 from each server in turn: none may be refused. */
    private static void take(List<Http> servers, List<List<Long>> issued, int batches) {
        for (int i = 0; i < batches; i++) {
            for (int s = 0; s < servers.size(); s++) {
                HttpResponse<String> response = servers.get(s).get("/api/segment/get/" + TAG + "?count=50");
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                response.body().lines().map(Long::parseLong).forEach(issued.get(s)::add);
            }
        }
    }

    private ConfigurableApplicationContext start(String name, String firstUrl, TestDatabase first,
            TestDatabase second) {
        return new SpringApplicationBuilder(LeafServerApplication.class)
                .run(arguments(name, firstUrl, first, second).toArray(String[]::new));
    }

    private List<String> arguments(String name, String firstUrl, TestDatabase first, TestDatabase second) {
        return new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dataDir.resolve(name), "--leaf.admin.token=" + TOKEN,
                "--leaf.jdbc.stripe-width=" + WIDTH, "--leaf.segment.max-step=1000",
                "--leaf.jdbc.store-timeout=500ms", "--leaf.jdbc.connect-timeout=500ms",
                "--leaf.jdbc.stores[0].url=" + firstUrl, "--leaf.jdbc.stores[0].username=" + first.user(),
                "--leaf.jdbc.stores[0].password=" + first.password(),
                "--leaf.jdbc.stores[1].url=" + second.url(), "--leaf.jdbc.stores[1].username=" + second.user(),
                "--leaf.jdbc.stores[1].password=" + second.password(),
                "--leaf.formats.o.pattern={yyyy}{MM}{seq:6}", "--leaf.formats.o.reset=monthly",
                "--leaf.formats.o.tag=several-fmt", "--leaf.formats.o.zone=UTC"));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }

    private static HttpResponse<String> admin(Http server, String method, String path, String body) throws Exception {
        int port = Integer.parseInt(server.get("/actuator/health").uri().getAuthority().split(":")[1]);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(15)).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
