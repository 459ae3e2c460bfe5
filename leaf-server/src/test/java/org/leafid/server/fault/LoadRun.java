package org.leafid.server.fault;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Concurrent HTTP clients issuing IDs until stopped. Each client is one thread with its own
 * {@link HttpClient} (one connection), bound to one server; it alternates segment and snowflake
 * requests when given both, with a batch ({@code ?count=10}) every few requests, and keeps every
 * ID it got in order. Failures are counted by status and problem type, per phase, and a
 * {@link LoadWatch} reports the first answer of a kind, to time a fault and a recovery.
 */
final class LoadRun implements AutoCloseable {

    enum Mode { SEGMENT, SNOWFLAKE, SHARD }

    /**
     * A client: which server, which tag (null: no segment requests), and whether to ask for
     * snowflakes; or, with a shard app id (0..255, else -1), shard IDs of that app only, every
     * other request with a gate pass out of {@link #GATE_PASSES} users and the rest round-robin.
     */
    record ClientSpec(String instance, int port, String tag, boolean snowflake, int batchEvery, int shardApp) {

        ClientSpec(String instance, int port, String tag, boolean snowflake, int batchEvery) {
            this(instance, port, tag, snowflake, batchEvery, -1);
        }

        static ClientSpec shard(String instance, int port, int appId, int batchEvery) {
            return new ClientSpec(instance, port, null, false, batchEvery, appId);
        }
    }

    /** One answer: status 0 when there was none; key "snowflake 200" or what went wrong. */
    record Outcome(String instance, Mode mode, int status, String key, long startedNanos, long doneNanos) {}

    static final int BATCH = 10;
    /** The users whose gate passes shard clients send. */
    static final int GATE_PASSES = 1_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final long PAUSE_AFTER_ERROR_MILLIS = 20;
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"urn:leaf:problem:([a-z0-9-]+)\"");

    private final List<Client> clients = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<LoadWatch> watches = new CopyOnWriteArrayList<>();
    private final java.util.Queue<Long> latencyNanos = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean recordingLatencies;
    /** Counts of IDs and of errors, by phase, instance and what happened. */
    private final Map<LoadSummary.Count, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    /** When the last failed request of each phase ended (nanoTime). */
    private final Map<String, AtomicLong> lastErrorNanos = new ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();
    private volatile boolean stopping;
    private volatile String phase = "load";
    /** Requests started in each phase and not yet counted. */
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private LoadSummary summary;

    private LoadRun(List<ClientSpec> specs) {
        for (ClientSpec spec : specs) {
            Client client = new Client(spec);
            clients.add(client);
            Thread thread = new Thread(client::run, "fault-client-" + spec.instance() + "-" + threads.size());
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    static LoadRun start(List<ClientSpec> specs) {
        return new LoadRun(specs);
    }

    /** Requests started from now on are counted under this phase. */
    void phase(String name) {
        phase = name;
    }

    /**
     * Switches to a new phase, then waits until every request started in the previous one has
     * been answered, so that a fault injected next cannot be met by a request still counted in
     * the previous phase (on a loaded machine one can be seconds in flight).
     */
    void phaseAfterDrain(String name, Duration bound) throws InterruptedException {
        String previous = phase;
        phase = name;
        AtomicInteger flying = inFlight.get(previous);
        long deadline = System.nanoTime() + bound.toNanos();
        while (flying != null && flying.get() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(flying.get() + " requests of phase '" + previous + "' still unanswered after "
                        + bound.toMillis() + " ms");
            }
            Thread.sleep(1);
        }
    }

    /** The IDs the clients were given so far, every phase and mode together. */
    long idsSoFar() {
        return counts.entrySet().stream().filter(e -> !e.getKey().error()).mapToLong(e -> e.getValue().sum()).sum();
    }

    /** Records how long every request takes from now on, for {@link #p99Millis}. */
    void recordLatencies() {
        recordingLatencies = true;
    }

    /** The 99th percentile of the requests' times since {@link #recordLatencies}, in milliseconds. */
    double p99Millis() {
        long[] sorted = latencyNanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]
                / 1_000_000.0;
    }

    /** The first answer from now on, of requests started from now on, that matches. */
    LoadWatch watch(String instance, Mode mode, Predicate<Outcome> match) {
        LoadWatch watch = new LoadWatch(instance, mode, match);
        watches.add(watch);
        return watch;
    }

    /** When the last failed request started in a phase ended (nanoTime), or empty when none failed. */
    OptionalLong lastErrorNanos(String phase) {
        return lastErrorNanos(phase, null);
    }

    /** The same for one instance; a null phase means any phase. */
    OptionalLong lastErrorNanos(String phase, String instance) {
        String key = (phase == null ? "" : phase) + (instance == null ? "" : "@" + instance);
        AtomicLong last = lastErrorNanos.get(key);
        return last == null ? OptionalLong.empty() : OptionalLong.of(last.get());
    }

    /** Stops every client (each finishes its request, bounded by the request timeout) and sums up. */
    synchronized LoadSummary stop() throws InterruptedException {
        if (summary != null) {
            return summary;
        }
        stopping = true;
        for (Thread thread : threads) {
            thread.join(REQUEST_TIMEOUT.toMillis() * 3);
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not stop");
            }
        }
        long duration = (System.nanoTime() - startedNanos) / 1_000_000;
        Map<LoadSummary.Count, Long> totals = new HashMap<>();
        counts.forEach((count, adder) -> totals.put(count, adder.sum()));
        summary = new LoadSummary(duration, List.copyOf(clients), requests.sum(), Map.copyOf(totals));
        return summary;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** One client thread's requests and the IDs it got, in order. */
    final class Client {
        private final ClientSpec spec;
        private final LongList segment = new LongList();
        private final LongList snowflake = new LongList();
        private final LongList shard = new LongList();
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();

        private Client(ClientSpec spec) {
            this.spec = spec;
        }

        ClientSpec spec() {
            return spec;
        }

        LongList ids(Mode mode) {
            return switch (mode) {
                case SEGMENT -> segment;
                case SNOWFLAKE -> snowflake;
                case SHARD -> shard;
            };
        }

        private void run() {
            if (spec.shardApp() >= 0) {
                runShard();
                return;
            }
            Mode[] modes = spec.tag() == null ? new Mode[] {Mode.SNOWFLAKE}
                    : spec.snowflake() ? new Mode[] {Mode.SEGMENT, Mode.SNOWFLAKE} : new Mode[] {Mode.SEGMENT};
            for (long n = 0; !stopping; n++) {
                Mode mode = modes[(int) (n % modes.length)];
                long round = n / modes.length;
                boolean batch = spec.batchEvery() > 0 && round % spec.batchEvery() == spec.batchEvery() - 1;
                String path = (mode == Mode.SEGMENT ? "/api/segment/get/" + spec.tag() : "/api/snowflake/get/fault")
                        + (batch ? "?count=" + BATCH : "");
                if (!request(mode, path)) {
                    return; // interrupted
                }
            }
        }

        private void runShard() {
            for (long n = 0; !stopping; n++) {
                boolean batch = spec.batchEvery() > 0 && n % spec.batchEvery() == spec.batchEvery() - 1;
                StringBuilder path = new StringBuilder("/api/shard/get/").append(spec.shardApp());
                char separator = '?';
                if (n % 2 == 0) {
                    path.append("?gatePass=user-").append(n / 2 % GATE_PASSES).append("%40example.com");
                    separator = '&';
                }
                if (batch) {
                    path.append(separator).append("count=").append(BATCH);
                }
                if (!request(Mode.SHARD, path.toString())) {
                    return; // interrupted
                }
            }
        }

        /** One request; false only when interrupted. */
        private boolean request(Mode mode, String path) {
            String phaseAtStart = phase;
            AtomicInteger flying = inFlight.computeIfAbsent(phaseAtStart, k -> new AtomicInteger());
            flying.incrementAndGet();
            try {
                return countedRequest(mode, path, phaseAtStart);
            } finally {
                flying.decrementAndGet();
            }
        }

        private boolean countedRequest(Mode mode, String path, String phaseAtStart) {
            long started = System.nanoTime();
            int status = 0;
            String key;
            long[] ids = null;
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + spec.port() + path))
                        .timeout(REQUEST_TIMEOUT).GET().build();
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                status = response.statusCode();
                if (status == 200) {
                    ids = parseIds(response.body());
                    key = ids == null ? "200 unparseable" : "200";
                } else {
                    key = describe(response);
                }
            } catch (HttpTimeoutException e) {
                key = "no answer (timeout)";
            } catch (IOException e) {
                key = "no answer (" + e.getClass().getSimpleName() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            requests.increment();
            key = mode.name().toLowerCase(Locale.ROOT) + " " + key;
            if (ids != null) {
                ids(mode).addAll(ids);
                counts.computeIfAbsent(new LoadSummary.Count(phaseAtStart, spec.instance(), false, mode.name()),
                        k -> new LongAdder()).add(ids.length);
            } else {
                counts.computeIfAbsent(new LoadSummary.Count(phaseAtStart, spec.instance(), true, key), k -> new LongAdder())
                        .increment();
                long done = System.nanoTime();
                for (String which : new String[] {phaseAtStart, phaseAtStart + "@" + spec.instance(), "@" + spec.instance()}) {
                    lastErrorNanos.computeIfAbsent(which, k -> new AtomicLong())
                            .accumulateAndGet(done, Math::max);
                }
            }
            if (recordingLatencies) {
                latencyNanos.add(System.nanoTime() - started);
            }
            if (!watches.isEmpty()) {
                Outcome outcome = new Outcome(spec.instance(), mode, status, key, started, System.nanoTime());
                watches.forEach(watch -> watch.offer(outcome));
            }
            if (ids == null && !stopping) {
                try {
                    Thread.sleep(PAUSE_AFTER_ERROR_MILLIS); // a client that backs off a little, as real ones do
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private static long[] parseIds(String body) {
        try {
            long[] ids = body.lines().filter(line -> !line.isBlank()).mapToLong(line -> Long.parseLong(line.trim()))
                    .toArray();
            return ids.length == 0 ? null : ids;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** "503 store-unavailable", with what is wrong with the answer itself appended. */
    static String describe(HttpResponse<String> response) {
        String contentType = response.headers().firstValue("Content-Type").orElse("no content type");
        String body = response.body() == null ? "" : response.body();
        Matcher type = PROBLEM_TYPE.matcher(body);
        StringBuilder key = new StringBuilder().append(response.statusCode()).append(' ');
        if (contentType.startsWith("application/problem+json") && type.find()) {
            key.append(type.group(1));
        } else {
            key.append("not problem+json (").append(contentType).append(')');
        }
        if (response.statusCode() == 503 && response.headers().firstValue("Retry-After").isEmpty()) {
            key.append(", no Retry-After");
        }
        if (body.contains("Exception") || body.contains("at org.")) {
            key.append(", STACK TRACE IN BODY");
        }
        return key.toString();
    }
}
