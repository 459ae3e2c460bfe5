package org.leafid.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.support.TestServerKeys;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * docs/client.md's Java example, run as written against a real server: the page's block is
 * compiled as the body of a method, with only the servers' addresses changed to this server's
 * (both names of the page point at it), and each of its IDs is checked. The server has what the
 * example asks for: the tag {@code order}, shard app 7, and formats.md's format {@code order}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ClientPageExampleTest {

    private static final Path PAGE = Path.of("../docs/client.md");
    private static final String TOKEN = "client-page-admin-token-0123456789-abcdef";
    /** A database of this test's own: the page's names (order, app 7) are no other test's. */
    private static final TestDatabase DATABASE = fresh();

    @LocalServerPort
    int port;

    @TempDir
    Path classes;

    private static TestDatabase fresh() {
        TestDatabase base = TestDatabase.get();
        base.derived("clientpage").drop();
        TestDatabase database = base.derived("clientpage");
        database.insertTag("order", 1, 1000);
        return database;
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "client-page");
        registry.add("leaf.snowflake.port", () -> "18097");
        registry.add("leaf.shard.enable", () -> "true");
        registry.add("leaf.admin.token", () -> TOKEN);
        registry.add("leaf.formats.order.pattern", () -> "ORD{yyyy}{MM}{dd}{seq:6}{check}");
        registry.add("leaf.formats.order.reset", () -> "daily");
        registry.add("leaf.formats.order.zone", () -> "Asia/Shanghai");
    }

    @Test
    void thePagesExampleRunsAsWrittenAgainstAServer() throws Exception {
        HttpResponse<String> app = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/admin/apps"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"appId\":7,\"appName\":\"client-page\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(app.statusCode()).as(app.body()).isEqualTo(201);

        String example = javaBlock().replace("http://leaf-1:8080", "http://127.0.0.1:" + port)
                .replace("http://leaf-2:8080", "http://127.0.0.1:" + port);
        String source = "package clientpage;\n\nimport org.leafid.client.LeafClient;\n\n"
                + "public class Example {\n    public static Object[] run() throws Exception {\n" + example
                + "\n        leaf.close();\n        return new Object[] {orderId, ids, eventId, userId, order};\n    }\n}\n";
        Path file = Files.createDirectories(classes.resolve("clientpage")).resolve("Example.java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        assertThat(javac.run(null, null, null, "-cp", classPath, "-d", classes.toString(), file.toString()))
                .as("the page's example compiles").isZero();

        Object[] results;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            results = (Object[]) loader.loadClass("clientpage.Example").getMethod("run").invoke(null);
        }
        long orderId = (Long) results[0];
        long[] ids = (long[]) results[1];
        assertThat(orderId).as("the tag's first ID").isEqualTo(1);
        assertThat(ids).hasSize(100).doesNotHaveDuplicates().doesNotContain(orderId);
        assertThat(Arrays.stream(ids).min().orElseThrow()).isGreaterThan(orderId);
        assertThat((Long) results[2]).as("a snowflake ID").isPositive();
        assertThat((Long) results[3] & 0xFF).as("shard mode: the app in the low 8 bits").isEqualTo(7);
        assertThat((String) results[4]).as("the format's first string of the day").matches("ORD\\d{8}000001\\d");
    }

    /** The page's only ```java block. */
    private static String javaBlock() throws IOException {
        Matcher blocks = Pattern.compile("(?ms)^```java\\n(.*?)^```$").matcher(Files.readString(PAGE,
                StandardCharsets.UTF_8));
        List<String> found = blocks.results().map(match -> match.group(1)).toList();
        assertThat(found).as("%s has one ```java block", PAGE).hasSize(1);
        return found.get(0);
    }
}
