package org.leafid.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.support.Http;

/**
 * The packaged jar, copied into a directory with a {@code leaf.properties} beside it and started
 * from another directory that holds a second {@code leaf.properties}: both are read, the working
 * directory's wins where both set a key, and the start-up log lists the two files.
 */
class LeafPropertiesBesideJarIT {

    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

    @TempDir
    Path temp;

    @Test
    void leafPropertiesBesideTheJarIsReadWhenStartedFromAnotherDirectory() throws Exception {
        Path jarDir = Files.createDirectories(temp.resolve("install"));
        Path jar = Files.copy(builtJar(), jarDir.resolve("leaf-server.jar"));
        // An installation is the jar and its lib/ (which the jar's manifest names); a link saves the copy.
        Files.createSymbolicLink(jarDir.resolve("lib"), builtJar().resolveSibling("lib"));
        Files.writeString(jarDir.resolve("leaf.properties"), """
                # beside the jar
                leaf.segment.enable=false
                leaf.max-batch=5
                """);
        Path workDir = Files.createDirectories(temp.resolve("work"));
        Files.writeString(workDir.resolve("leaf.properties"), "leaf.max-batch=7\n");
        Path log = temp.resolve("server.log");

        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar.toString(), "--server.port=0", "--leaf.snowflake.port=18093",
                "--leaf.snowflake.ip=127.0.0.1", "--leaf.data-dir=" + temp.resolve("data"))
                .directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        // The test JVM's LEAF_*/SPRING_* variables must not configure the server under test.
        builder.environment().keySet().removeIf(key -> key.startsWith("LEAF_") || key.startsWith("SPRING_")
                || key.startsWith("SERVER_") || key.startsWith("JAVA_TOOL_OPTIONS") || key.startsWith("JDK_JAVA_OPTIONS"));
        Process server = builder.start();
        try {
            int port = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> port(server, log), Optional::isPresent).orElseThrow();
            Http http = new Http(port);

            HttpResponse<String> segment = http.get("/api/segment/get/leaf-segment-test");
            assertThat(segment.statusCode()).as(read(log)).isEqualTo(404);
            assertThat(segment.body()).contains("leaf.segment.enable");
            assertThat(http.get("/api/snowflake/get/any?count=7").statusCode()).isEqualTo(200);
            assertThat(http.get("/api/snowflake/get/any?count=8").statusCode()).isEqualTo(400);
            assertThat(read(log)).contains("Read " + workDir.toRealPath().resolve("leaf.properties")
                    + " (working directory), " + jarDir.toRealPath().resolve("leaf.properties") + " (beside the jar)");
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** The jar copied without its lib/: one line saying to copy both, exit status 2, no stack trace. */
    @Test
    void theJarWithoutItsLibStopsSayingToCopyBoth() throws Exception {
        Path jar = Files.copy(builtJar(), Files.createDirectories(temp.resolve("alone")).resolve("leaf-server.jar"));
        Path log = temp.resolve("alone.log");
        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isEqualTo(2);
        assertThat(read(log)).contains("the lib/ directory that came with it is not beside it")
                .doesNotContain("NoClassDefFoundError").doesNotContain("\tat ");
    }

    private static Path builtJar() {
        Path jar = Path.of(System.getProperty("leaftest.server-jar", "target/leaf-server.jar")).toAbsolutePath();
        assertThat(jar).as("run after `package`").exists();
        return jar;
    }

    private static Optional<Integer> port(Process server, Path log) {
        String text = read(log);
        if (!server.isAlive()) {
            throw new AssertionError("the server exited with " + server.exitValue() + ":\n" + text);
        }
        Matcher matcher = PORT.matcher(text);
        return matcher.find() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
