package org.leafid.redis.worker;

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.leafid.core.Durations;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.LeaseOwner;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservationFile.Recorded;
import org.leafid.core.worker.ReservationSink;
import org.leafid.core.worker.StartReservation;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * {@code redis}: worker ids leased in Redis to one process each ({@link LeaseOwner}: its address
 * and a random token of this process), sticky per {@code ip:port} only where the id is free.
 * Taking, renewing and releasing are Lua scripts ({@link RedisWorkerScripts}, keys in
 * {@link RedisWorkerKeys}), each comparing the lease's whole owner before it changes anything.
 *
 * <p>Why no two live instances issue with one id, even when Redis loses every key:
 * <ol>
 *   <li>A holder issues at time t only while t is before its reservation, which it moves ahead
 *       (2 x the report interval) only after a renewal script confirmed, in Redis, that the lease is
 *       still its own. So after its last successful renewal a holder issues for at most its
 *       reservation horizon, and only timestamps below the reservation it last recorded.</li>
 *   <li>While the keys exist, the reservation key holds the largest reservation any holder of the
 *       id recorded; a taker issues only at or after it: timestamps cannot meet.</li>
 *   <li>When the keys may be gone (FLUSHALL, a restart without persistence, a restart or failover
 *       that lost the last writes), a holder's next renewal finds no lease and it stops at once;
 *       until then it may go on for its horizon. The pool marker ({@code {prefix}pool}) tells a
 *       taker so: missing, or written by another Redis process (its run id), it is written anew
 *       with Redis's own time, and every taker then waits until one lease after it, a wait Redis
 *       computes on its own clock and the taker sleeps as a duration: no taker's clock, ahead or
 *       behind, moves the marker or shortens the wait. The lease is at least the horizon plus 10 s
 *       (checked by the configuration), so by then every holder that lost its keys has stopped, and
 *       its timestamps are below the new ones unless the clocks differ by more than the margin.
 *       This waits even on a brand-new pool, which Redis cannot tell from an emptied one.</li>
 *   <li>Redis down at start: this instance cannot know whether its id was taken while it was down
 *       (its lease may have run out, or been lost and taken by another), so no cached id is ever
 *       provably safe, and the start fails naming Redis. The cache file still binds this instance's
 *       next start to its own last reservation, whatever Redis kept.</li>
 * </ol>
 * A lease belongs to the process, never to its address: a second process of the same
 * {@code ip:port} (two hosts' containers at one address) never takes over a lease still held; it
 * takes another free id and says so, and the address's sticky id stays with the holder. A restart
 * gets the sticky id back once the earlier process released it, or once its lease ran out after a
 * crash.
 */
public final class RedisWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(RedisWorkerIdRegistry.class);
    /** How much longer than its own timeout a WAIT may take to answer. */
    private static final long WAIT_ANSWER_MARGIN_MILLIS = 1_000;
    /** What an operator checks when Redis does not answer. */
    static final String REDIS_SETTINGS = "Redis (spring.data.redis.*)";

    private final StringRedisTemplate redis;
    private final RedisWorkerSettings settings;
    private final RedisWorkerKeys keys;
    private final InstanceAddress instance;
    private final LeaseOwner owner;
    private final ReservationFile cache;
    private final InstantSource clock;
    private final Sleeper sleeper;

    public RedisWorkerIdRegistry(StringRedisTemplate redis, RedisWorkerSettings settings, InstanceAddress instance,
            ReservationFile cache, InstantSource clock, Sleeper sleeper) {
        this.redis = redis;
        this.settings = settings;
        this.keys = new RedisWorkerKeys(settings.keyPrefix());
        this.instance = instance;
        this.owner = LeaseOwner.newProcess(instance);
        this.cache = cache;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public Registration register() {
        Optional<Recorded> cached = cache.read();
        List<String> arguments = new ArrayList<>(List.of(settings.keyPrefix(), instance.key(), owner.key(),
                Integer.toString(settings.maxWorkerId()), Long.toString(leaseMillis()), Long.toString(clock.millis()),
                Long.toString(leaseMillis())));
        cached.ifPresent(recorded -> arguments.add(Integer.toString(recorded.workerId())));
        List<Object> taken;
        try {
            Acked<List<Object>> take = runAcked(RedisWorkerScripts.TAKE, List.of(keys.pool()), arguments.toArray());
            taken = take.result();
            if (taken != null && taken.size() >= 5 && Integer.parseInt(String.valueOf(taken.get(0))) >= 0) {
                requireAcks(take, "take of worker id " + taken.get(0));
            }
        } catch (DataAccessException | RedisException e) {
            throw new WorkerIdUnavailableException(REDIS_SETTINGS + " could not be reached (" + e.getMessage()
                    + "); leaf.snowflake.mode=redis needs it to take a worker id, and no cached id is safe without "
                    + "it (another instance may have taken it). Start Redis or fix spring.data.redis.*", e);
        }
        if (taken == null || taken.size() < 5) {
            throw new WorkerIdUnavailableException("The take script under " + settings.keyPrefix() + " answered "
                    + taken + "; is another version of leaf-redis sharing the prefix?");
        }
        int workerId = Integer.parseInt(String.valueOf(taken.get(0)));
        int stickyHeld = Integer.parseInt(String.valueOf(taken.get(3)));
        if (workerId < 0) {
            throw new WorkerIdUnavailableException("All " + (settings.maxWorkerId() + 1) + " worker ids under "
                    + settings.keyPrefix() + " that the layout's worker bits carry are leased"
                    + (stickyHeld >= 0 ? ", " + stickyNote(stickyHeld, taken.get(4)) : "")
                    + "; stop an instance, or wait for the leases of dead ones to run out (leaf.snowflake.redis.lease)");
        }
        if (stickyHeld >= 0) {
            log.warn("Snowflake mode redis: {}'s sticky worker id {} is held by another live process ({}), so this "
                    + "process ({}) took worker id {} instead. Two servers share the address {}: give each its own "
                    + "leaf.snowflake.ip or port unless that is intended", instance, stickyHeld, taken.get(4), owner,
                    workerId, instance);
        }
        long reserved = Long.parseLong(String.valueOf(taken.get(1)));
        long lossWait = Long.parseLong(String.valueOf(taken.get(2)));
        long waitedUntil = awaitLossWait(workerId, lossWait);
        StartReservation start = StartReservation.of(cached, workerId, reserved);
        if (start.cacheOverruled()) {
            log.warn("Snowflake mode redis: the cache file {} held worker id {}, which is leased to another process "
                    + "now; {} took worker id {}", cache.path(), cached.get().workerId(), owner, workerId);
        }
        long recorded = Math.max(start.reservedUntilMillis(), waitedUntil);
        log.info("Snowflake mode redis: {} (process {}) took worker id {}, recorded reservation {}", instance,
                owner.token(), workerId, recorded);
        return new Registration(workerId, recorded, new Lease(workerId));
    }

    private String stickyNote(int stickyHeld, Object holder) {
        return instance + "'s sticky id " + stickyHeld + " among them, held by another live process (" + holder + ")";
    }

    private long leaseMillis() {
        return settings.lease().toMillis();
    }

    /**
     * Waits until the pool's keys have been whole for a lease (point 3 above), a wait Redis measured
     * on its own clock; returns this clock's time after it (0 when there was none), from which IDs
     * are issued. Longer than two leases means Redis's clock went back since it wrote the marker:
     * refused, since the wait would not be bounded by the lease.
     */
    private long awaitLossWait(int workerId, long waitMillis) {
        if (waitMillis <= 0) {
            return 0;
        }
        if (waitMillis > 2 * leaseMillis()) {
            throw new WorkerIdUnavailableException("The pool marker " + keys.pool() + " in Redis says ids are safe "
                    + "only in " + waitMillis + " ms, more than two leases (leaf.snowflake.redis.lease): Redis's clock "
                    + "went back since it wrote the marker; check NTP on the Redis host");
        }
        log.warn("Snowflake mode redis: Redis may have lost the leases (the pool marker {} is new: a FLUSHALL, a "
                + "restart or a failover); worker id {} is issued from only after {} ms, when every instance that "
                + "held an id before has stopped (leaf.snowflake.redis.lease)", keys.pool(), workerId, waitMillis);
        long before = clock.millis();
        try {
            sleeper.sleepMillis(waitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("the leases Redis may have lost to run out", e);
        }
        long after = clock.millis();
        if (after - before < waitMillis) {
            throw new WorkerIdUnavailableException("The clock went back while waiting for the leases Redis may have "
                    + "lost to run out; still " + (waitMillis - (after - before)) + " ms to go");
        }
        return after;
    }

    /** A script's answer and how many replicas acknowledged it ({@code WAIT}), -1 when none was asked for. */
    private record Acked<T>(T result, long replicas) {}

    /**
     * Runs a script and, when replicas must acknowledge lease writes, {@code WAIT} on the same
     * connection right after it: a master that was frozen past Sentinel's {@code down-after} and
     * replaced still answers its old clients until Sentinel turns it into a replica, but no replica
     * follows it any more, so no {@code WAIT} of it is acknowledged.
     */
    private <T> Acked<T> runAcked(RedisScript<T> script, List<String> scriptKeys, Object... arguments) {
        if (settings.replicaAcks() == 0) {
            return new Acked<>(redis.execute(script, scriptKeys, arguments), -1);
        }
        return redis.execute(new SessionCallback<Acked<T>>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> Acked<T> execute(RedisOperations<K, V> operations) {
                // One connection for both (bound for the session), so WAIT counts this script's write.
                T result = ((RedisOperations<String, String>) operations).execute(script, scriptKeys, arguments);
                Long replicas = operations.execute((RedisCallback<Long>) connection -> waitForReplicas(connection));
                return new Acked<>(result, replicas == null ? 0 : replicas);
            }
        });
    }

    /** {@code WAIT} on the connection's native (shared) Lettuce connection, the one the script went through. */
    @SuppressWarnings("unchecked")
    private Long waitForReplicas(RedisConnection connection) {
        RedisClusterAsyncCommands<byte[], byte[]> commands =
                (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
        long timeoutMillis = settings.replicaAckTimeout().toMillis();
        try {
            return commands.waitForReplication(settings.replicaAcks(), timeoutMillis)
                    .get(timeoutMillis + WAIT_ANSWER_MARGIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("Redis to answer WAIT", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new WorkerIdUnavailableException(REDIS_SETTINGS + " did not answer WAIT within "
                    + (timeoutMillis + WAIT_ANSWER_MARGIN_MILLIS) + " ms (" + e + ")", e);
        }
    }

    /** A write fewer replicas acknowledged than asked for does not count. */
    private void requireAcks(Acked<?> acked, String what) {
        if (acked.replicas() >= 0 && acked.replicas() < settings.replicaAcks()) {
            throw new WorkerIdUnavailableException("Redis: the " + what + " was acknowledged by " + acked.replicas()
                    + " replica(s) within " + Durations.format(settings.replicaAckTimeout()) + ", fewer than the "
                    + settings.replicaAcks() + " of leaf.snowflake.redis.replica-acks (WAIT): the Redis reached may be "
                    + "a master cut off from its replicas while Sentinel fails over, so it does not count. Check the "
                    + "replicas (INFO replication); set leaf.snowflake.redis.replica-acks=0 only for a Redis that has "
                    + "none and no Sentinel");
        }
    }

    /**
     * The lease of one id: each reservation goes to the cache file first (so this instance's next
     * start honours it whatever Redis keeps), then to Redis with the renewal, in one script that
     * first checks the lease is still this instance's.
     */
    private final class Lease implements ReservationSink {

        private final int workerId;

        Lease(int workerId) {
            this.workerId = workerId;
        }

        @Override
        public void record(int id, long reservedUntilMillis) {
            cache.record(workerId, reservedUntilMillis);
            Acked<Long> renewal = run(RedisWorkerScripts.RENEW, "renew", owner.key(), Long.toString(leaseMillis()),
                    Long.toString(reservedUntilMillis));
            Long renewed = renewal.result();
            if (renewed == null || renewed != 1L) {
                throw new WorkerIdLostException("worker id " + workerId + " is no longer leased to this process ("
                        + owner + ") in Redis: " + keys.lease(workerId) + " is " + holderNow()
                        + " (a FLUSHALL, a restart or failover of Redis, or the lease ran out) and may be another "
                        + "process's now, even one of the same address");
            }
            requireAcks(renewal, "renewal of worker id " + workerId);
        }

        @Override
        public void release(int id, long finalReservationMillis) {
            cache.record(workerId, finalReservationMillis);
            Long released = run(RedisWorkerScripts.RELEASE, "release", owner.key(),
                    Long.toString(finalReservationMillis)).result();
            if (released == null || released != 1L) {
                throw new WorkerIdUnavailableException("worker id " + workerId + " was no longer leased to this "
                        + "process (" + owner + ") in Redis (" + keys.lease(workerId) + " is " + holderNow()
                        + "): nothing to release");
            }
            log.info("Released worker id {} in Redis with reservation {}", workerId, finalReservationMillis);
        }

        /** Who holds the lease now, for the message of a lost one; best effort, the loss is known already. */
        private String holderNow() {
            try {
                String holder = redis.opsForValue().get(keys.lease(workerId));
                return holder == null ? "gone" : "held by " + holder;
            } catch (DataAccessException | RedisException e) {
                return "unreadable (" + e.getMessage() + ")";
            }
        }

        private Acked<Long> run(RedisScript<Long> script, String what, String... arguments) {
            try {
                return runAcked(script, List.of(keys.lease(workerId), keys.reserved(workerId)), (Object[]) arguments);
            } catch (DataAccessException | RedisException e) {
                throw new WorkerIdUnavailableException(REDIS_SETTINGS + " did not answer the " + what + " of worker id "
                        + workerId + " (" + e.getMessage() + ")", e);
            }
        }
    }
}
