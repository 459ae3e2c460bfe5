package org.leafid.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * IDs from Leaf servers, served from memory: a double buffer per segment tag, for snowflake, and
 * per shard-mode app and shard, each filled with batches ({@code ?count=N}) fetched in the
 * background before it runs out. Servers are asked in turn, with failover; see the package
 * documentation for the rules and {@link Builder} for the options.
 *
 * <pre>{@code
 * try (LeafClient leaf = LeafClient.builder().servers("http://leaf-1:8080", "http://leaf-2:8080").build()) {
 *     long orderId = leaf.segment("order").nextId();
 * }
 * }</pre>
 *
 * <p>Guarantees: every ID was issued by a server, in a complete answer that passed the checks of
 * its mode (the count, every ID positive, the app and shard, the order; see the package
 * documentation); no ID is handed out twice by one client; a segment tag's IDs, and the snowflake
 * IDs, increase in each thread (across threads, in the order claimed: a thread claims up to 64 at a
 * time). Thread-safe.
 */
public final class LeafClient implements AutoCloseable {

    /** The server's rule for tags and keys; checked here so that a bad tag fails before any call. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    /** The snowflake path's key: validated by the server, not used. */
    private static final String SNOWFLAKE_KEY = "leaf-client";
    private static final int FETCH_THREADS = 2;

    private final Builder settings;
    private final ServerPool pool;
    private final ScheduledThreadPoolExecutor fetchers;
    private final ExecutorService httpThreads;
    /** Cuts off an answer still coming at its request's deadline. */
    private final ScheduledThreadPoolExecutor deadlines;
    private final HttpBatchSource source;
    /** The same servers, asked for segment batches as ranges. */
    private final HttpBatchSource rangeSource;
    /** The same servers, asked for shard batches as ranges (runs of several shards, in no order). */
    private final HttpBatchSource shardRangeSource;
    private final ClientMeters meters;
    private final ConcurrentHashMap<String, PrefetchBuffer> segments = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, FormatSource> formats = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, ShardIds> shards = new ConcurrentHashMap<>();
    private final PrefetchBuffer snowflake;
    private volatile boolean closed;

    private LeafClient(Builder settings) {
        this.settings = settings;
        LongSupplier nanos = System::nanoTime;
        this.pool = new ServerPool(settings.servers, nanos);
        // The Micrometer class is named only here, and reached only with a registry.
        this.meters = settings.meterRegistry == null ? ClientMeters.NONE
                : new MicrometerClientMeters(settings.meterRegistry);
        meters.servers(pool, LeafClient::serversUp);
        this.fetchers = new ScheduledThreadPoolExecutor(FETCH_THREADS, ClientThreads.named("leaf-client-fetch"));
        this.fetchers.setRemoveOnCancelPolicy(true);
        this.httpThreads = Executors.newFixedThreadPool(FETCH_THREADS, ClientThreads.named("leaf-client-http"));
        this.deadlines = new ScheduledThreadPoolExecutor(1, ClientThreads.named("leaf-client-deadline"));
        this.deadlines.setRemoveOnCancelPolicy(true);
        // Redirects are never followed (a 3xx is that server's failure): a proxy must not send the client anywhere.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(settings.connectTimeout)
                .executor(httpThreads).build();
        this.source = new HttpBatchSource(http, deadlines, pool, settings.requestTimeout, meters);
        this.rangeSource = source.askingForRanges(true);
        this.shardRangeSource = source.askingForRanges(false);
        // Ordered, with one floor whichever server answers: see SnowflakeAnswerCheck.
        this.snowflake = buffer("snowflake", "snowflake", "/api/snowflake/get/" + SNOWFLAKE_KEY + "?", true,
                SnowflakeAnswerCheck::new);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The IDs of a segment tag (a {@code leaf_alloc} row); they increase in each thread of this client. */
    public IdSource segment(String tag) {
        checkKey("tag", tag);
        return segments.computeIfAbsent(tag, t -> buffer("segment", t, "/api/segment/get/" + t + "?", true,
                SegmentAnswerCheck::new, rangeSource, settings.maxRangeBatch));
    }

    /** Snowflake IDs (time-ordered, from whichever server answers; increasing within this client). */
    public IdSource snowflake() {
        checkOpen();
        return snowflake;
    }

    /** Shard-mode IDs of an app (0..255). */
    public ShardIds shard(int appId) {
        checkOpen();
        if (appId < 0 || appId > 255) {
            throw LeafRequestException.of(400, Problem.TYPE_PREFIX + "invalid-app-id",
                    "An app id is 0..255 (8 bits of the ID), not " + appId, null);
        }
        return shards.computeIfAbsent(appId,
                id -> new ShardIds(id, (key, path, check) -> buffer("shard", key, path, false, served -> check,
                        shardRangeSource, settings.maxBatch)));
    }

    /**
     * The strings of a format ({@code leaf.formats.<name>} on the servers), prefetched as IDs are;
     * each checked against the pattern the servers answer with.
     */
    public FormatSource format(String name) {
        checkKey("format name", name);
        return formats.computeIfAbsent(name, n -> new FormatSource(n, source, fetchers,
                new BatchSizer(settings.maxBatch, settings.targetFetchInterval.toNanos()), settings.prefetchThreshold,
                settings.maxWait, meters));
    }

    /** The next string of a format: {@code format(name).next()}. */
    public String nextString(String name) {
        return format(name).next();
    }

    /** Each server as the client sees it now, in the configured order. */
    public List<ServerState> servers() {
        long now = System.nanoTime();
        List<ServerState> states = new ArrayList<>();
        for (ServerPool.Server server : pool.servers()) {
            long left = server.downUntil - now;
            states.add(new ServerState(server.url, left <= 0, Duration.ofNanos(Math.max(0, left)),
                    server.lastFailure));
        }
        return states;
    }

    /** Stops the fetch threads; callers waiting for IDs get {@link LeafUnavailableException}. */
    @Override
    public void close() {
        closed = true;
        snowflake.close();
        segments.values().forEach(PrefetchBuffer::close);
        formats.values().forEach(FormatSource::close);
        shards.values().forEach(ShardIds::close);
        fetchers.shutdownNow();
        httpThreads.shutdownNow();
        deadlines.shutdownNow();
        try {
            fetchers.awaitTermination(settings.requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private PrefetchBuffer buffer(String mode, String key, String path, boolean increasing,
            Function<LongSupplier, AnswerCheck> checks) {
        return buffer(mode, key, path, increasing, checks, source, settings.maxBatch);
    }

    /** @param largest the largest batch: {@code maxRangeBatch} for a segment tag, {@code maxBatch} for the others */
    private PrefetchBuffer buffer(String mode, String key, String path, boolean increasing,
            Function<LongSupplier, AnswerCheck> checks, BatchSource from, int largest) {
        return new PrefetchBuffer(mode, key, path, increasing, checks, from, fetchers,
                new BatchSizer(largest, settings.targetFetchInterval.toNanos()),
                settings.prefetchThreshold, settings.maxWait, System::nanoTime, meters);
    }

    private static double serversUp(ServerPool pool) {
        long now = System.nanoTime();
        return pool.servers().stream().filter(server -> server.isUpAt(now)).count();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("The Leaf client is closed");
        }
    }

    private void checkKey(String what, String key) {
        checkOpen();
        if (key == null || !KEY.matcher(key).matches()) {
            throw LeafRequestException.of(400, Problem.TYPE_PREFIX + "invalid-key", "A " + what
                    + " is 1 to 128 of A-Z a-z 0-9 . _ : -, not " + (key == null ? "null" : "'" + key + "'"), null);
        }
    }

    /** The client's options; {@link #build()} checks them. */
    public static final class Builder {

        private List<String> servers = List.of();
        private Duration connectTimeout = Duration.ofSeconds(1);
        private Duration requestTimeout = Duration.ofSeconds(2);
        private int maxBatch = 1000;
        private int maxRangeBatch = 1_000_000;
        private double prefetchThreshold = 0.1;
        private Duration maxWait = Duration.ofSeconds(5);
        private Duration targetFetchInterval = Duration.ofMillis(100);
        private Object meterRegistry;

        private Builder() {}

        /** Base URLs ({@code http://host:port}), asked in this order; the first is preferred. */
        public Builder servers(String... urls) {
            return servers(List.of(urls));
        }

        public Builder servers(List<String> urls) {
            List<String> clean = new ArrayList<>();
            for (String url : urls) {
                String trimmed = Objects.requireNonNull(url, "a server URL is null").trim();
                URI uri = URI.create(trimmed);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new IllegalArgumentException(
                            "A Leaf server is an http(s)://host:port URL, not '" + url + "'");
                }
                clean.add(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
            }
            this.servers = List.copyOf(clean);
            return this;
        }

        /** How long a connection may take to open (default 1 s). */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive("connectTimeout", timeout);
            return this;
        }

        /**
         * How long a batch request may take, its whole answer (body included) received, before the
         * next server is asked (default 2 s).
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive("requestTimeout", timeout);
            return this;
        }

        /** The largest batch asked for; at most the servers' {@code leaf.max-batch} (default 1000, as theirs). */
        public Builder maxBatch(int ids) {
            if (ids < 1) {
                throw new IllegalArgumentException("maxBatch must be at least 1, was " + ids);
            }
            this.maxBatch = ids;
            return this;
        }

        /**
         * The largest batch of a segment tag, which the servers answer as ranges; at most the servers'
         * {@code leaf.segment.max-range-batch} (default 1000000, as theirs). A batch of a million costs
         * a server and the client what a batch of one does; the size still follows the rate of use, so
         * only a tag taken at about ten million IDs a second gets batches that large.
         */
        public Builder maxRangeBatch(int ids) {
            if (ids < 1) {
                throw new IllegalArgumentException("maxRangeBatch must be at least 1, was " + ids);
            }
            this.maxRangeBatch = ids;
            return this;
        }

        /** The part of a batch used when the next one is fetched, 0..1 (default 0.1, Leaf's 10 %). */
        public Builder prefetchThreshold(double usedPart) {
            if (!(usedPart >= 0 && usedPart <= 1)) {
                throw new IllegalArgumentException("prefetchThreshold is 0..1, was " + usedPart);
            }
            this.prefetchThreshold = usedPart;
            return this;
        }

        /** The longest a call waits for a batch once the buffer is spent (default 5 s). */
        public Builder maxWait(Duration wait) {
            this.maxWait = positive("maxWait", wait);
            return this;
        }

        /** How long one batch should last; batch sizes follow the rate of use towards it (default 100 ms). */
        public Builder targetFetchInterval(Duration interval) {
            this.targetFetchInterval = positive("targetFetchInterval", interval);
            return this;
        }

        /**
         * Meters in this registry (an {@code io.micrometer.core.instrument.MeterRegistry}); none by default.
         * Typed as Object so that an application without Micrometer loads no class of it.
         */
        public Builder meterRegistry(Object registry) {
            if (registry != null && !isMeterRegistry(registry)) {
                throw new IllegalArgumentException("Not a Micrometer MeterRegistry: " + registry.getClass());
            }
            this.meterRegistry = registry;
            return this;
        }

        public LeafClient build() {
            if (servers.isEmpty()) {
                throw new IllegalArgumentException("No Leaf server: give at least one URL to servers(...)");
            }
            return new LeafClient(this);
        }

        private static boolean isMeterRegistry(Object registry) {
            for (Class<?> type = registry.getClass(); type != null; type = type.getSuperclass()) {
                if (type.getName().equals("io.micrometer.core.instrument.MeterRegistry")) {
                    return true;
                }
            }
            return false;
        }

        private static Duration positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
