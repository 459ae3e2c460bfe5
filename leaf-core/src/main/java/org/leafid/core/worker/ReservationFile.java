package org.leafid.core.worker;

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
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local cache of a worker id and its reservation: {@code {"workerId":N,"reservedUntil":MS}}
 * in a {@code .json} file ({@code local} mode), or Leaf's {@code workerID=N} plus
 * {@code reservedUntil=MS} in a {@code .properties} file (ZooKeeper and MySQL modes). Written
 * atomically (temp file, fsync, rename), so a crash leaves the old or the new content, never
 * half of one.
 */
public final class ReservationFile implements ReservationSink {

    private static final Pattern JSON_OBJECT = Pattern.compile("\\s*\\{(.*)}\\s*", Pattern.DOTALL);
    private static final Pattern JSON_MEMBER = Pattern.compile("\\s*\"(\\w+)\"\\s*:\\s*(-?\\d+)\\s*,?");

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
        return Optional.of(parseJson(json));
    }

    /**
     * The JSON this class writes, read without a JSON library (leaf-core depends on nothing but
     * SLF4J): an object of exactly the two whole-number members, in any order.
     */
    private Recorded parseJson(String content) {
        Matcher object = JSON_OBJECT.matcher(content);
        if (!object.matches()) {
            throw invalid(content, null);
        }
        Map<String, String> members = new HashMap<>();
        Matcher member = JSON_MEMBER.matcher(object.group(1));
        int end = 0;
        while (member.lookingAt()) {
            members.put(member.group(1), member.group(2));
            end = member.end();
            member.region(end, member.regionEnd());
        }
        if (end != object.group(1).length() || members.size() != 2 || !members.containsKey("workerId")
                || !members.containsKey("reservedUntil")) {
            throw invalid(content, null);
        }
        try {
            return new Recorded(Integer.parseInt(members.get("workerId")), Long.parseLong(members.get("reservedUntil")));
        } catch (NumberFormatException e) {
            throw invalid(content, e);
        }
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

    private WorkerCacheFileException invalid(String content, Throwable cause) {
        return new WorkerCacheFileException(path, content, cause);
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
