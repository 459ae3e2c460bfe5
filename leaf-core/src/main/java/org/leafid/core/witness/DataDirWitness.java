package org.leafid.core.witness;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.leafid.core.segment.ReservationWitness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witness of a store's reservations in the server's data directory,
 * {@code {data-dir}/{leaf.name}/witness/{store}-{n}.log}: one line {@code reservedUpTo<TAB>key} per
 * reservation that went beyond the last one recorded, appended and forced to disk before the block is
 * served. The file is this process's alone (an OS lock, held until it stops); a second process sharing
 * the data directory takes the next free {@code n}. At start every file of the store is read, the
 * highest value per key wins, and this process's file is rewritten with one line per key.
 *
 * <p>A line cut short by a crash (no line break at the end) was never confirmed, so its block was never
 * served: it is dropped. Anything else unreadable stops the start naming the file: a witness that
 * cannot be read cannot vouch for anything.
 */
public final class DataDirWitness implements ReservationWitness, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DataDirWitness.class);
    /** Appended lines after which this process's file is rewritten with one line per key. */
    private static final int COMPACT_AFTER_LINES = 100_000;

    private final Path file;
    /** This process's file, open and locked; replaced by each rewrite. Guarded by {@code this}. */
    private FileChannel channel;
    private FileLock lock;
    private final Map<String, Long> marks = new ConcurrentHashMap<>();
    /** Lines in this process's file; guarded by {@code this}. */
    private int lines;

    private DataDirWitness(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Opens the witness of {@code store} (a table's name) under {@code directory}, reading what every
     * process that shared the directory witnessed.
     *
     * @throws WitnessException when the directory or a file cannot be read or written
     */
    public static DataDirWitness open(Path directory, String store) {
        return open(directory, store, false);
    }

    /**
     * @param fleetWitnessed whether the fleet's witness (ZooKeeper, Redis) covers restores too: then an
     *     empty directory is no risk and is said at INFO, not WARN
     */
    public static DataDirWitness open(Path directory, String store, boolean fleetWitnessed) {
        try {
            Files.createDirectories(directory);
            for (int n = 0; n < 64; n++) {
                Path candidate = directory.resolve(store + "-" + n + ".log");
                FileChannel channel = FileChannel.open(candidate, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileLock lock = tryLock(channel);
                if (lock == null) {
                    channel.close(); // another live process's file (or another server's in this JVM)
                    continue;
                }
                DataDirWitness witness = new DataDirWitness(candidate, channel, lock);
                witness.load(directory, store, fleetWitnessed);
                return witness;
            }
            throw new WitnessException("64 processes hold witness files of " + store + " in " + directory
                    + ": give each server a leaf.data-dir of its own");
        } catch (IOException e) {
            throw new WitnessException("the witness of " + store + " in " + directory + " cannot be opened ("
                    + e + "); check that leaf.data-dir is a writable directory", e);
        }
    }

    /** The file's lock, or null when another process, or another witness of this JVM, holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    @Override
    public long witnessed(String key) {
        return marks.getOrDefault(key, Long.MIN_VALUE);
    }

    @Override
    public synchronized void record(String key, long reservedUpTo) {
        Long known = marks.get(key);
        if (known != null && known >= reservedUpTo) {
            return;
        }
        try {
            if (lines >= COMPACT_AFTER_LINES) {
                marks.put(key, reservedUpTo);
                rewrite();
                return;
            }
            writeFully(line(key, reservedUpTo));
            channel.force(false);
            lines++;
        } catch (IOException e) {
            throw new WitnessException("the reservation of '" + key + "' up to " + reservedUpTo + " could not be "
                    + "written to " + file + " (" + e + "); it is not served. Check the disk of leaf.data-dir", e);
        }
        marks.put(key, reservedUpTo);
    }

    /** This process's file. */
    public Path file() {
        return file;
    }

    /** How many keys are witnessed. */
    public int size() {
        return marks.size();
    }

    @Override
    public synchronized void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            log.debug("Closing the witness {} failed: {}", file, e.toString());
        }
    }

    private void load(Path directory, String store, boolean fleetWitnessed) throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(path -> path.getFileName().toString().startsWith(store + "-")
                    && path.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        for (Path each : files) {
            read(each);
        }
        rewrite();
        if (marks.isEmpty() && fleetWitnessed) {
            log.info("Witness of {} in {} is empty (a new data directory); the fleet's witness covers a restore",
                    store, directory);
        } else if (marks.isEmpty()) {
            log.warn("Witness of {} in {} is empty (a new data directory): a database restored from a backup "
                    + "before this start cannot be told from the one Leaf wrote to, and would serve numbers again. "
                    + "Keep leaf.data-dir on a disk that outlives the process (a persistent volume), or give the fleet"
                    + " a witness in ZooKeeper or Redis (leaf.witness.fleet)", store, directory);
        } else {
            log.info("Witness of {}: {} keys from {} file(s) in {}, this process writes {}", store, marks.size(),
                    files.size(), directory, file.getFileName());
        }
    }

    private void read(Path each) throws IOException {
        String text = Files.readString(each, StandardCharsets.UTF_8);
        String[] all = text.split("\n", -1);
        // The last element is what follows the last line break: empty, or a line cut short by a crash.
        for (int i = 0; i < all.length - 1; i++) {
            parse(each, i + 1, all[i]);
        }
        if (!all[all.length - 1].isEmpty()) {
            log.warn("Witness {}: its last line was cut short (a crash while it was written); that reservation "
                    + "was never served, and the line is dropped", each);
        }
    }

    private void parse(Path each, int number, String line) {
        int tab = line.indexOf('\t');
        try {
            if (tab < 1) {
                throw new NumberFormatException("no tab");
            }
            long upTo = Long.parseLong(line.substring(0, tab));
            String key = URLDecoder.decode(line.substring(tab + 1), StandardCharsets.UTF_8);
            marks.merge(key, upTo, Math::max);
        } catch (IllegalArgumentException e) { // NumberFormatException and a bad %-escape alike
            throw new WitnessException("line " + number + " of the witness " + each + " is not valid (" + e.getMessage()
                    + "): it cannot vouch for the reservations it records. Restore the file from a backup of the "
                    + "data directory, or move it away once the store is known not to have gone back");
        }
    }

    /** This process's file anew, one line per key, in place of the old one (a crash leaves one or the other). */
    private void rewrite() throws IOException {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(marks).forEach((key, upTo) -> text.append(line(key, upTo)));
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
        forceDirectory(file.getParent());
        reopen();
        lines = marks.size();
    }

    /** The lock and channel belong to the old file: take the new file's, then let go of the old one's. */
    private void reopen() throws IOException {
        FileChannel fresh = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock freshLock = tryLock(fresh);
        if (freshLock == null) {
            fresh.close();
            throw new IOException("another process locked " + file + " while it was rewritten");
        }
        FileChannel old = channel;
        FileLock oldLock = lock;
        channel = fresh;
        lock = freshLock;
        oldLock.release();
        old.close();
    }

    private void writeFully(String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        channel.position(channel.size());
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    private static void forceDirectory(Path directory) {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a directory; the rename is durable there by other means.
            log.debug("Could not force directory {}: {}", directory, e.toString());
        }
    }

    private static String line(String key, long upTo) {
        return upTo + "\t" + URLEncoder.encode(key, StandardCharsets.UTF_8) + "\n";
    }
}
