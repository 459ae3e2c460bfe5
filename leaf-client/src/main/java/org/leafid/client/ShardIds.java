package org.leafid.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * Shard-mode IDs of one app: {@link #nextId(String)} in the shard of a gate pass (a buffer per
 * shard, since every gate pass of a shard gets IDs of the same sequence), {@link #nextId()}
 * round-robin over the app's shards as the server chooses them.
 */
public final class ShardIds implements IdSource {

    private static final int SHARDS = 64;
    private static final int MAX_GATE_PASS_LENGTH = 256;

    private final int appId;
    private final IdSource roundRobin;
    private final Function<String, IdSource> buffers;
    private final ConcurrentMap<Integer, IdSource> byShard = new ConcurrentHashMap<>();

    ShardIds(int appId, Function<String, IdSource> buffers) {
        this.appId = appId;
        this.buffers = buffers;
        this.roundRobin = buffers.apply("/api/shard/get/" + appId);
    }

    /** The next ID of the app, in the next shard in turn. */
    @Override
    public long nextId() {
        return roundRobin.nextId();
    }

    @Override
    public long[] nextIds(int count) {
        return roundRobin.nextIds(count);
    }

    /**
     * The next ID in the shard of {@code gatePass} (the user's name, phone or e-mail):
     * {@code Math.abs(gatePass.hashCode()) % 64}, as the server computes it.
     */
    public long nextId(String gatePass) {
        return forGatePass(gatePass).nextId();
    }

    public long[] nextIds(String gatePass, int count) {
        return forGatePass(gatePass).nextIds(count);
    }

    private IdSource forGatePass(String gatePass) {
        if (gatePass == null || gatePass.isEmpty() || gatePass.length() > MAX_GATE_PASS_LENGTH) {
            throw new IllegalArgumentException("gatePass must be 1 to " + MAX_GATE_PASS_LENGTH + " characters");
        }
        int shard = Math.abs(gatePass.hashCode()) % SHARDS;
        // Any gate pass of the shard fetches the shard's IDs: the first one seen stands for it.
        return byShard.computeIfAbsent(shard, s -> buffers.apply("/api/shard/get/" + appId + "?gatePass="
                + URLEncoder.encode(gatePass, StandardCharsets.UTF_8)));
    }
}
