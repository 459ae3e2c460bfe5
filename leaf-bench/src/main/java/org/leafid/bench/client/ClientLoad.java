package org.leafid.bench.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.leafid.client.IdSource;
import org.leafid.client.LeafClient;

/**
 * One client JVM taking IDs from a server as fast as its threads can, for a bounded time:
 * {@code ClientLoad <server URL> <segment tag | snowflake> <threads> <seconds> <largest batch>}; the
 * largest batch is the client's {@code maxBatch}, and a segment tag's batches, which come as ranges,
 * grow up to its default {@code maxRangeBatch}.
 * A warm-up of a third of the time first, then the measured run; prints
 * {@code CLIENT mode=... threads=... ids/s=...}. Each thread checks that its IDs increase
 * (segment) or differ from the last one (snowflake), so the JIT cannot drop the calls.
 */
public final class ClientLoad {

    private ClientLoad() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println(
                    "usage: ClientLoad <server URL> <segment tag | snowflake> <threads> <seconds> <largest batch>");
            System.exit(2);
        }
        String server = args[0];
        String what = args[1];
        int threads = Integer.parseInt(args[2]);
        Duration measured = Duration.ofSeconds(Long.parseLong(args[3]));
        int largestBatch = Integer.parseInt(args[4]);
        try (LeafClient leaf = LeafClient.builder().servers(server).maxBatch(largestBatch).build()) {
            IdSource source = what.equals("snowflake") ? leaf.snowflake() : leaf.segment(what);
            run(source, threads, measured.dividedBy(3)); // warm-up
            long ids = run(source, threads, measured);
            double perSecond = ids / (measured.toNanos() / 1e9);
            System.out.printf("CLIENT mode=%s threads=%d seconds=%d largest-batch=%d ids=%d ids/s=%.0f%n",
                    what.equals("snowflake") ? "snowflake" : "segment", threads, measured.toSeconds(), largestBatch,
                    ids, perSecond);
        }
    }

    private static long run(IdSource source, int threads, Duration duration) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder total = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                long count = 0;
                long last = -1;
                try {
                    while (!stop.get()) {
                        for (int i = 0; i < 1024; i++) {
                            long id = source.nextId();
                            if (id == last) {
                                throw new IllegalStateException("the same ID twice in a row: " + id);
                            }
                            last = id;
                        }
                        count += 1024;
                    }
                } catch (RuntimeException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
                total.add(count);
            }, "client-load-" + t);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a load thread failed", failures.get(0));
        }
        return total.sum();
    }
}
