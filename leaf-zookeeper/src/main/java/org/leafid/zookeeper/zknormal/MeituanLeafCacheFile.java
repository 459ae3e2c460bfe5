package org.leafid.zookeeper.zknormal;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.Properties;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdUnavailableException;

/**
 * Meituan Leaf's own worker-id cache, {@code {dir}/{leaf.name}/leafconf/{port}/workerID.properties}
 * holding {@code workerID=N} and nothing else, where {@code dir} is Leaf's {@code java.io.tmpdir}.
 * Read only: an instance taking over from Leaf with ZooKeeper down at start and no cache file of
 * its own starts from it, as Leaf would. It records no time, so it cannot say when Leaf last
 * issued IDs with that worker id.
 */
public record MeituanLeafCacheFile(Path path) {

    /**
     * @param directory the {@code java.io.tmpdir} Leaf ran with; empty means this JVM's, which is
     *     Leaf's own rule and right when Leaf ran on this machine with the default
     */
    public static MeituanLeafCacheFile of(String directory, String name, int port) {
        // Leaf's own rule (its java.io.tmpdir), not a setting of ours read behind Spring's back.
        String base = directory == null || directory.isBlank() ? System.getProperty("java.io.tmpdir") : directory;
        return new MeituanLeafCacheFile(Path.of(base).resolve(name).resolve("leafconf").resolve(Integer.toString(port))
                .resolve("workerID.properties"));
    }

    /** The worker id Leaf cached, or empty when there is no file. */
    public OptionalInt workerId() {
        if (!Files.exists(path)) {
            return OptionalInt.empty();
        }
        String content;
        try {
            content = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read Meituan Leaf's worker-id cache " + path, e);
        }
        Properties values = new Properties();
        try {
            values.load(new StringReader(content));
            int workerId = Integer.parseInt(values.getProperty("workerID", "").trim());
            // Meituan Leaf's own file, of its 10 worker bits; the start checks the id against the layout.
            if (workerId >= 0 && workerId <= SnowflakeLayout.MAX_WORKER_ID) {
                return OptionalInt.of(workerId);
            }
        } catch (IOException | NumberFormatException e) {
            // reported below, with the content
        }
        throw new WorkerIdUnavailableException("Meituan Leaf's worker-id cache " + path + " does not hold a worker id "
                + "0.." + SnowflakeLayout.MAX_WORKER_ID + " as workerID=N (" + content.strip() + "); start ZooKeeper, "
                + "or restore the file");
    }
}
