package org.leafid.server.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ops/start-cache.sh JAR DIR JAVA} deletes DIR and makes it again, so it replaces only a DIR
 * it made (one holding {@code .leaf-start-cache}) or a missing or empty one. The refusals are given
 * a jar, its lib/ and this JVM, everything the script needs to go on to the deletion: without the
 * guard the files would be gone.
 */
class StartCacheScriptTest {

    private static final Path SCRIPT = Path.of("../ops/start-cache.sh").toAbsolutePath().normalize();
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path temp;

    private Path jar;

    /** A jar and its lib/ as the script checks them; the training start fails on the empty jar at once. */
    @BeforeEach
    void installation() throws IOException {
        Path install = Files.createDirectories(temp.resolve("install"));
        Files.createDirectories(install.resolve("lib"));
        jar = Files.createFile(install.resolve("leaf-server.jar"));
    }

    @Test
    void aDirectoryHoldingOtherFilesIsRefusedAndKept() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("home"));
        Path notes = Files.writeString(dir.resolve("notes.txt"), "keep me");

        Run run = startCache(jar.toString(), dir.toString(), JAVA);

        assertThat(run.exit()).isNotZero();
        assertThat(run.errors()).contains(dir + " is not empty and was not made by start-cache.sh")
                .contains("name a new or empty directory");
        assertThat(notes).hasContent("keep me");
    }

    @Test
    void theDirectoryOfTheJarIsRefused() throws Exception {
        Run run = startCache(jar.toString(), jar.getParent().toString(), JAVA);

        assertThat(run.exit()).isNotZero();
        assertThat(run.errors()).contains(jar.getParent() + " holds " + jar);
        assertThat(jar).exists();
        assertThat(jar.resolveSibling("lib")).isDirectory();
    }

    /** With a jar that does not exist, so that no version of the script could get as far as deleting /. */
    @Test
    void theRootDirectoryIsRefused() throws Exception {
        Run run = startCache(temp.resolve("missing.jar").toString(), "/", JAVA);

        assertThat(run.exit()).isNotZero();
        assertThat(run.errors()).contains("refusing to delete and make again /");
    }

    @Test
    void aDirectoryWithTheMarkerPassesTheGuard() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("cache"));
        Files.writeString(dir.resolve(".leaf-start-cache"), "");
        Files.writeString(dir.resolve("leaf.aot"), "an old cache");
        Path missing = temp.resolve("missing.jar");

        Run run = startCache(missing.toString(), dir.toString(), JAVA);

        assertThat(run.exit()).isNotZero();
        assertThat(run.errors()).contains(missing + " does not exist").doesNotContain(dir.toString());
    }

    /** The training start fails on the empty jar; by then DIR is made again, with the marker. */
    @Test
    void theDirectoryItMakesCarriesTheMarkerAndIsReplacedNextTime() throws Exception {
        Path dir = temp.resolve("cache");

        startCache(jar.toString(), dir.toString(), JAVA);
        assertThat(dir.resolve(".leaf-start-cache")).exists();
        Path stale = Files.writeString(dir.resolve("stale.txt"), "from the first run");
        startCache(jar.toString(), dir.toString(), JAVA);

        assertThat(dir.resolve(".leaf-start-cache")).exists();
        assertThat(stale).doesNotExist();
    }

    private record Run(int exit, String errors) {}

    private Run startCache(String... arguments) throws Exception {
        Path errors = temp.resolve("errors.txt");
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString()).redirectError(errors.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.command().addAll(List.of(arguments));
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("start-cache.sh ended within 60 s").isTrue();
        return new Run(process.exitValue(), Files.readString(errors, StandardCharsets.UTF_8));
    }
}
