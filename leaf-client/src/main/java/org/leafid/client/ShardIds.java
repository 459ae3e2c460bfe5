package org.leafid.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shard-mode IDs of one app ({@code index << 14 | shardId << 8 | appId}). A gate pass routes to
 * the shard {@code Math.abs(gatePass.hashCode()) % 64}, as on the server, so the client keeps a
 * buffer per shard and any gate pass of that shard is served from it: the batch of a shard is
 * fetched with the gate pass that first asked for it. Without a gate pass the server picks the
 * shard round-robin, from a buffer of its own.
 */
public final class ShardIds {

    static final int SHARDS = 64;

    private final int appId;
    private final Buffers buffers;
    private final ConcurrentHashMap<Integer, PrefetchBuffer> byShard = new ConcurrentHashMap<>();
    private final PrefetchBuffer anyShard;

    /** Makes the buffer of a meter key and path, whose answers {@code check} judges. */
    @FunctionalInterface
    interface Buffers {
        PrefetchBuffer make(String key, String path, AnswerCheck check);
    }

    ShardIds(int appId, Buffers buffers) {
        this.appId = appId;
        this.buffers = buffers;
        this.anyShard = buffers.make(appId + "/any", "/api/shard/get/" + appId + "?", new ShardAnswerCheck(appId, -1));
    }

    /** The shard a gate pass maps to: {@code Math.abs(gatePass.hashCode()) % 64}. */
    public static int shardOf(String gatePass) {
        return Math.abs(gatePass.hashCode()) % SHARDS; // Math.abs(Integer.MIN_VALUE) % 64 is 0, as on the server
    }

    /** The next ID in the gate pass's shard. */
    public long nextId(String gatePass) {
        return of(gatePass).nextId();
    }

    /** The next ID, in a shard the server picks round-robin. */
    public long nextId() {
        return anyShard.nextId();
    }

    /** {@code n} IDs in the gate pass's shard. */
    public long[] nextIds(String gatePass, int n) {
        return of(gatePass).nextIds(n);
    }

    /** {@code n} IDs in shards the server picks. */
    public long[] nextIds(int n) {
        return anyShard.nextIds(n);
    }

    /** The app id, 0..255. */
    public int appId() {
        return appId;
    }

    /** The buffer serving a gate pass's shard. */
    public IdSource of(String gatePass) {
        if (gatePass == null) {
            throw new IllegalArgumentException("gatePass is null; use nextId() for a shard picked round-robin");
        }
        return byShard.computeIfAbsent(shardOf(gatePass), shard -> buffers.make(appId + "/" + shard,
                "/api/shard/get/" + appId + "?gatePass=" + URLEncoder.encode(gatePass, StandardCharsets.UTF_8) + "&",
                new ShardAnswerCheck(appId, shard)));
    }

    void close() {
        anyShard.close();
        byShard.values().forEach(PrefetchBuffer::close);
    }
}
