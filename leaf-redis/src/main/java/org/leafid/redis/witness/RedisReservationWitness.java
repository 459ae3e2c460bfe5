package org.leafid.redis.witness;

import java.util.List;
import java.util.Locale;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.witness.WitnessException;
import org.leafid.core.witness.WitnessedBlocks;
import org.leafid.redis.LuaScripts;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The fleet's witness of segment reservations in Redis: every server claims each block before it serves
 * it, in one script call (one round trip per block). Per tag, a sorted set keeps the last
 * {@value #KEPT_BLOCKS} blocks and a hash the end of the highest one and of the highest trimmed away; a
 * block that overlaps one kept, or starts below the trimmed end, is refused with the highest end: the
 * store went back below numbers some server reserved. Blocks are recorded by any server, in any order,
 * so a block reserved before another but claimed after it is not mistaken for a repeat.
 *
 * <p>Keys {@code leaf:witness:<namespace>:{<tag>}:blocks} and {@code …:high} for {@code leaf_alloc};
 * {@code leaf:witness:<namespace>:<table>:{<key>}:…} for another table ({@code id_alloc}'s shard rows,
 * keys {@code app:shard}). The braces keep both keys of a row in one slot of a Redis Cluster. As
 * durable as the Redis setup: an {@code appendfsync always} server, or replicas, keep it through a
 * Redis restart.
 */
public final class RedisReservationWitness implements FleetReservationWitness {

    /** Blocks kept per tag: far more than the servers reserve while one block is between its store and here. */
    static final int KEPT_BLOCKS = 64;
    private static final RedisScript<String> CLAIM = new DefaultRedisScript<>(
            LuaScripts.source(RedisReservationWitness.class, "claim.lua"), String.class);
    private static final RedisScript<Long> RELEASE = new DefaultRedisScript<>(
            LuaScripts.source(RedisReservationWitness.class, "release.lua"), Long.class);

    private final StringRedisTemplate redis;
    private final String namespace;
    private final String table;
    private final String prefix;

    /** @param namespace the fleet's name in the keys: fleets that share a Redis have one each */
    public RedisReservationWitness(StringRedisTemplate redis, String namespace) {
        this(redis, namespace, "leaf_alloc", "leaf:witness:" + namespace + ":{");
    }

    private RedisReservationWitness(StringRedisTemplate redis, String namespace, String table, String prefix) {
        this.redis = redis;
        this.namespace = namespace;
        this.table = table;
        this.prefix = prefix;
    }

    @Override
    public RedisReservationWitness forTable(String table) {
        return new RedisReservationWitness(redis, namespace, table, "leaf:witness:" + namespace + ":" + table + ":{");
    }

    @Override
    public long claim(String key, long start, long end) {
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("a block is [start, end) with 0 <= start < end: [" + start + ", " + end
                    + ")");
        }
        String answer;
        try {
            // The claim's id goes with the script: a script sent again after a reconnect finds its own block.
            answer = redis.execute(CLAIM, List.of(prefix + key + "}:blocks", prefix + key + "}:high"), padded(start),
                    padded(end), Integer.toString(KEPT_BLOCKS), WitnessedBlocks.newClaimId());
        } catch (DataAccessException e) {
            throw new WitnessException("Tag '" + key + "': Redis, the fleet's witness of reservations"
                    + " (leaf.witness.fleet=redis), did not record block [" + start + ", " + end + "), so nothing of it"
                    + " is served: " + e.getMostSpecificCause().getMessage() + "; check spring.data.redis.*", e);
        }
        if (answer == null) {
            throw new WitnessException("Tag '" + key + "': Redis answered nothing to the witness's claim of block ["
                    + start + ", " + end + "); nothing of it is served");
        }
        if (answer.equals("twice")) {
            throw new FoundTwiceException(table, key, "Redis hash " + prefix + key + "}:high");
        }
        return answer.equals("ok") ? Long.MIN_VALUE : Long.parseLong(answer);
    }

    @Override
    public boolean release(String key) {
        Long released;
        try {
            released = redis.execute(RELEASE, List.of(prefix + key + "}:high"));
        } catch (DataAccessException e) {
            throw new WitnessException("Redis did not release " + table + " '" + key + "': "
                    + e.getMostSpecificCause().getMessage() + "; check spring.data.redis.*", e);
        }
        return released != null && released == 1;
    }

    /** 19 digits, as many as the largest long has: strings in this form sort as their numbers. */
    private static String padded(long number) {
        return String.format(Locale.ROOT, "%019d", number);
    }
}
