package org.leafid.server.worker;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Properties;
import org.leafid.core.snowflake.ReservationSink;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The local cache of a worker id and its reservation: {@code {"workerId":N,"reservedUntil":MS}}
 * in a {@code .json} file ({@code local} mode), or Leaf's {@code workerID=N} plus
 * {@code reservedUntil=MS} in a {@code .properties} file (ZooKeeper and MySQL modes). Written
 * atomically (temp file, fsync, rename), so a crash leaves the old or the new content, never
 * half of one.
 */
public final class ReservationFile implements ReservationSink {

    private final Path path;

    public ReservationFile(Path path) {
        this.path = path;
    }

    public Path path() {
        return path;
    }

    private boolean properties() {
        return path.getFileName().toString().endsWith(".properties");
    }

    /** What the file holds, or empty when there is no file. */
    public Optional<Recorded> read() {
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        String json;
        try {
            json = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read worker-id cache " + path, e);
        }
        if (properties()) {
            return Optional.of(parseProperties(json));
        }
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(json);
        } catch (JacksonException e) {
            throw invalid(json, e);
        }
        JsonNode id = root.path("workerId");
        JsonNode until = root.path("reservedUntil");
        if (!id.isIntegralNumber() || !until.isIntegralNumber()) {
            throw invalid(json, null);
        }
        return Optional.of(new Recorded(id.asInt(), until.asLong()));
    }

    private Recorded parseProperties(String content) {
        Properties values = new Properties();
        try {
            values.load(new StringReader(content));
            return new Recorded(Integer.parseInt(values.getProperty("workerID", "").trim()),
                    Long.parseLong(values.getProperty("reservedUntil", "").trim()));
        } catch (IOException | NumberFormatException e) {
            throw invalid(content, e);
        }
    }

    private IllegalStateException invalid(String content, Throwable cause) {
        return new IllegalStateException("Worker-id cache " + path + " is not valid (" + content.strip()
                + "); restore it, or delete it only once the clock is past any time this instance issued IDs at",
                cause);
    }

    @Override
    public void record(int workerId, long reservedUntilMillis) {
        String json = properties()
                ? "workerID=" + workerId + "\nreservedUntil=" + reservedUntilMillis + "\n"
                : "{\"workerId\":" + workerId + ",\"reservedUntil\":" + reservedUntilMillis + "}\n";
        try {
            Files.createDirectories(path.getParent());
            Path temp = path.resolveSibling(path.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
                channel.force(true);
            }
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write worker-id cache " + path, e);
        }
    }

    /** A worker id and the reservation recorded for it. */
    public record Recorded(int workerId, long reservedUntilMillis) {}
}
