package org.leafid.client;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Java client of the Leaf server: IDs are fetched in batches ({@code ?count=N}) and served from
 * memory, the next batch fetched before the current one runs out; servers are tried in turn and a
 * failing one is skipped for a back-off. Thread-safe; one per application; close it on shutdown.
 *
 * <pre>{@code
 * LeafClient leaf = LeafClient.builder()
 *         .servers("http://leaf-1:8080", "http://leaf-2:8080")
 *         .build();
 * long orderId = leaf.segment("order").nextId();
 * long eventId = leaf.snowflake().nextId();
 * long userId  = leaf.shard(7).nextId("alice@example.com");
 * }</pre>
 */
public final class LeafClient implements AutoCloseable {

    private final ServerPool servers;
    private final ExecutorService fetcher;
    private final int maxBatch;
    private final double prefetchThreshold;
    private final long maxWaitNanos;
    private final ConcurrentMap<String, IdSource> sources = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, ShardIds> shards = new ConcurrentHashMap<>();

    private LeafClient(Builder builder) {
        this.servers = new ServerPool(builder.servers, builder.connectTimeout, builder.requestTimeout,
                builder.backOff);
        this.maxBatch = builder.maxBatch;
        this.prefetchThreshold = builder.prefetchThreshold;
        this.maxWaitNanos = builder.maxWait.toNanos();
        this.fetcher = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "leaf-client-fetch");
            thread.setDaemon(true);
            return thread;
        });
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * IDs of a segment tag, increasing within this client.
     *
     * @throws IllegalArgumentException when the tag is not 1-128 of {@code [A-Za-z0-9._:-]}
     */
    public IdSource segment(String tag) {
        if (tag == null || !tag.matches("[A-Za-z0-9._:-]{1,128}")) {
            throw new IllegalArgumentException("a tag is 1 to 128 of A-Z a-z 0-9 . _ : -: " + tag);
        }
        return sources.computeIfAbsent("/api/segment/get/" + tag, path -> buffer(path, true));
    }

    /** Snowflake IDs (the server's key is not used for the ID, as in Leaf). */
    public IdSource snowflake() {
        return sources.computeIfAbsent("/api/snowflake/get/leaf-client", path -> buffer(path, false));
    }

    /** Shard-mode IDs of an app (0-255). */
    public ShardIds shard(int appId) {
        if (appId < 0 || appId > 255) {
            throw new IllegalArgumentException("appId must be 0..255: " + appId);
        }
        return shards.computeIfAbsent(appId, id -> new ShardIds(id,
                path -> sources.computeIfAbsent(path, p -> buffer(p, false))));
    }

    private PrefetchBuffer buffer(String path, boolean increasing) {
        return new PrefetchBuffer(path, servers, fetcher, maxBatch, prefetchThreshold, maxWaitNanos, increasing);
    }

    /** Stops the background fetches; IDs still buffered are dropped (never served twice, never lost twice). */
    @Override
    public void close() {
        fetcher.shutdownNow();
    }

    /** How a client is built; every option has a default but the servers. */
    public static final class Builder {

        private final List<URI> servers = new ArrayList<>();
        private Duration connectTimeout = Duration.ofSeconds(1);
        private Duration requestTimeout = Duration.ofSeconds(2);
        private Duration backOff = Duration.ofSeconds(1);
        private Duration maxWait = Duration.ofSeconds(5);
        private int maxBatch = 1000;
        private double prefetchThreshold = 0.5;

        private Builder() {}

        /** Base URLs, e.g. {@code http://leaf-1:8080}; tried in turn. */
        public Builder servers(String... urls) {
            for (String url : urls) {
                URI uri = URI.create(Objects.requireNonNull(url, "server url").endsWith("/") ? url : url + "/");
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                    throw new IllegalArgumentException("a server is an http(s) URL: " + url);
                }
                servers.add(uri);
            }
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /** How long a failing server is skipped when it sent no {@code Retry-After}. */
        public Builder backOff(Duration backOff) {
            this.backOff = positive(backOff, "backOff");
            return this;
        }

        /** The longest {@code nextId()} waits for a batch before {@link LeafUnavailableException}. */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = positive(maxWait, "maxWait");
            return this;
        }

        /** The largest batch asked for: at most the server's {@code leaf.max-batch} (1000 by default). */
        public Builder maxBatch(int maxBatch) {
            if (maxBatch < 1) {
                throw new IllegalArgumentException("maxBatch must be at least 1: " + maxBatch);
            }
            this.maxBatch = maxBatch;
            return this;
        }

        /** The used fraction of a batch at which the next is fetched (0.5: half way). */
        public Builder prefetchThreshold(double threshold) {
            if (!(threshold >= 0 && threshold < 1)) {
                throw new IllegalArgumentException("prefetchThreshold must be in [0, 1): " + threshold);
            }
            this.prefetchThreshold = threshold;
            return this;
        }

        public LeafClient build() {
            if (servers.isEmpty()) {
                throw new IllegalStateException("at least one server is needed: builder().servers(\"http://leaf:8080\")");
            }
            return new LeafClient(this);
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
            return value;
        }
    }
}
