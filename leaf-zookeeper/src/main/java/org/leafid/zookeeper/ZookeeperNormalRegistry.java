package org.leafid.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.leafid.core.Durations;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.WorkerIdUnavailableException;
import org.leafid.core.snowflake.ReservationSink;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdRegistry;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code zk_normal}, Leaf's scheme: a persistent sequential node
 * {@code /snowflake/{name}/forever/{ip}:{port}-{seq}} per instance, whose sequence number is the
 * worker id for good. The reservation is written to the cache file (which must succeed) and to
 * the node (best effort: the id is this instance's forever, so a ZooKeeper outage does not stop
 * issuing). ZooKeeper unreachable at start: the cache file is used under the same rule, or,
 * when there is none, Meituan Leaf's own cache file ({@link MeituanLeafCacheFile}).
 *
 * <p>Drop-in for Meituan Leaf: an existing node of this ip:port, Leaf's or ours, is taken over
 * with its worker id, issuing only after its timestamp; node data keeps Leaf's exact shape
 * ({@link WorkerNode}), and a graceful stop leaves a timestamp Leaf's start check accepts.
 *
 * <p>Node writes of renewals run on {@code nodeWriter}, never on the renewing thread: while
 * ZooKeeper is partitioned or losing quorum, Curator may block a write for seconds before it
 * gives up, and a renewal held that long would let the reservation run out and stop issuing.
 */
public final class ZookeeperNormalRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperNormalRegistry.class);

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final InstanceAddress instance;
    private final ReservationFile cache;
    private final MeituanLeafCacheFile leafCache;
    private final Duration connectTimeout;
    private final Executor nodeWriter;

    /**
     * @param cache this server's cache file, written at every renewal
     * @param leafCache Meituan Leaf's cache file, read only when ZooKeeper is down at start and
     *     {@code cache} does not exist
     * @param nodeWriter runs the node updates of renewals (one at a time); {@code Runnable::run}
     *     writes in the renewing thread
     */
    public ZookeeperNormalRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            MeituanLeafCacheFile leafCache, Duration connectTimeout, Executor nodeWriter) {
        this.zk = zk;
        this.paths = paths;
        this.instance = instance;
        this.cache = cache;
        this.leafCache = leafCache;
        this.connectTimeout = connectTimeout;
        this.nodeWriter = nodeWriter;
    }

    @Override
    public Registration register() {
        Optional<ReservationFile.Recorded> cached = cache.read();
        if (!connected()) {
            return offline(cached);
        }
        try {
            String node = findOrCreateNode();
            int workerId = sequenceOf(node);
            // Meituan Leaf writes the last time it saw (its IDs may carry that time), this server
            // the time its IDs stay below; data alone cannot tell who wrote it, so IDs start after it.
            long recorded = WorkerNode.parse(node, zk.getData().forPath(node)).timestamp() + 1;
            if (cached.isPresent() && cached.get().workerId() == workerId) {
                recorded = Math.max(recorded, cached.get().reservedUntilMillis());
            }
            log.info("Snowflake mode zk_normal: {} holds worker id {} ({}), IDs from {} on", instance, workerId, node,
                    recorded);
            return new Registration(workerId, recorded, new Sink(node));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new WorkerIdUnavailableException("Could not register " + instance + " under " + paths.forever()
                    + ": " + e.getMessage(), e);
        }
    }

    /** ZooKeeper unreachable: our cache file, else Meituan Leaf's (its rule, with a warning), else refuse. */
    private Registration offline(Optional<ReservationFile.Recorded> cached) {
        if (cached.isPresent()) {
            log.warn("ZooKeeper unreachable at start: {} uses worker id {} and reservation {} from {}", instance,
                    cached.get().workerId(), cached.get().reservedUntilMillis(), cache.path());
            return new Registration(cached.get().workerId(), cached.get().reservedUntilMillis(), new Sink(null));
        }
        OptionalInt leafs = leafCache.workerId();
        if (leafs.isEmpty()) {
            throw new WorkerIdUnavailableException("ZooKeeper (leaf.snowflake.zk.address) could not be reached within "
                    + Durations.format(connectTimeout) + " and there is no cache file to start from: neither this "
                    + "server's " + cache.path() + " nor Meituan Leaf's " + leafCache.path()
                    + " (leaf.snowflake.zk.leaf-cache-dir) exists; start ZooKeeper or fix the address, then start "
                    + "again");
        }
        int workerId = leafs.getAsInt();
        log.warn("ZooKeeper unreachable at start and no cache file {}: {} uses worker id {} from Meituan Leaf's cache "
                + "file {}. That file records no time, so IDs are issued from now on, as Leaf itself does: they are "
                + "unique only if this machine's clock is past every ID Leaf issued with worker id {} (a clock set "
                + "back since Leaf stopped could repeat some). From now on the reservation is kept in {}",
                cache.path(), instance, workerId, leafCache.path(), workerId, cache.path());
        return new Registration(workerId, 0, new Sink(null));
    }

    private boolean connected() {
        try {
            return zk.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("ZooKeeper to connect", e);
        }
    }

    private String findOrCreateNode() throws Exception {
        String prefix = instance.key() + "-";
        List<String> children;
        try {
            children = zk.getChildren().forPath(paths.forever());
        } catch (KeeperException.NoNodeException e) {
            children = List.of();
        }
        for (String child : children) {
            if (child.startsWith(prefix)) {
                return paths.forever() + "/" + child;
            }
        }
        // Persistent parents, as Leaf creates them: a container parent is deleted by ZooKeeper once
        // it has no child, and a new one would hand out sequence numbers (worker ids) from 0 again.
        String created = zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(paths.forever() + "/" + prefix, new WorkerNode(instance.ip(), instance.port(), 0).toBytes());
        if (sequenceOf(created) > SnowflakeLayout.MAX_WORKER_ID) {
            zk.delete().forPath(created);
            throw new WorkerIdUnavailableException("ZooKeeper handed out sequence " + sequenceOf(created) + " under "
                    + paths.forever() + ": more than " + (SnowflakeLayout.MAX_WORKER_ID + 1) + " instances were ever "
                    + "registered, and worker ids have 10 bits. Use zk_recycle, or a new leaf.name");
        }
        log.info("Registered {} as {}", instance, created);
        return created;
    }

    private static int sequenceOf(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
    }

    /** Cache file first and always; the node when ZooKeeper answers, off the renewing thread. */
    private final class Sink implements ReservationSink {

        private volatile String node;
        private final AtomicBoolean reportedOutage = new AtomicBoolean();
        /** True while a node write runs; a renewal finding one leaves the node to the next renewal. */
        private final AtomicBoolean writing = new AtomicBoolean();
        /** Node writes one at a time, and none after the release; {@code released} is guarded by it. */
        private final Object nodeLock = new Object();
        private boolean released;

        Sink(String node) {
            this.node = node;
        }

        @Override
        public void record(int workerId, long reservedUntilMillis) {
            cache.record(workerId, reservedUntilMillis); // throws when it fails: then the reservation is not used
            if (!writing.compareAndSet(false, true)) {
                return;
            }
            try {
                nodeWriter.execute(() -> {
                    try {
                        writeRenewal(workerId, reservedUntilMillis);
                    } finally {
                        writing.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                writing.set(false); // shutting down: the cache file holds the reservation
            }
        }

        /**
         * A renewal still queued on {@code nodeWriter} when the id is released must not land after
         * the final reservation: it would put a time up to 2 x report-interval ahead of the clock
         * back on the node, and Meituan Leaf started on this node refuses to start until its
         * clock passes that time.
         */
        private void writeRenewal(int workerId, long reservedUntilMillis) {
            synchronized (nodeLock) {
                if (!released) {
                    writeNode(workerId, reservedUntilMillis);
                }
            }
        }

        /**
         * The final reservation: cache file, then the node in this thread, best effort. The holder
         * keeps it at or before the clock at stop, so Meituan Leaf's start check accepts the node.
         */
        @Override
        public void release(int workerId, long finalReservationMillis) {
            cache.record(workerId, finalReservationMillis);
            synchronized (nodeLock) {
                released = true;
                writeNode(workerId, finalReservationMillis);
            }
        }

        private void writeNode(int workerId, long reservedUntilMillis) {
            if (!zk.getZookeeperClient().isConnected()) {
                if (reportedOutage.compareAndSet(false, true)) {
                    log.warn("ZooKeeper unreachable: worker id {} keeps issuing on the reservation in {}; the node "
                            + "is updated when ZooKeeper is back", workerId, cache.path());
                }
                return;
            }
            try {
                String target = node != null ? node : (node = findOrCreateNode());
                if (sequenceOf(target) != workerId) {
                    log.error("{} is registered as {} in ZooKeeper, but issues with worker id {} from its cache file; "
                            + "the node is left alone. Restart the instance once ZooKeeper is healthy", instance,
                            target, workerId);
                    return;
                }
                zk.setData().forPath(target, new WorkerNode(instance.ip(), instance.port(), reservedUntilMillis)
                        .toBytes());
                if (reportedOutage.compareAndSet(true, false)) {
                    log.info("ZooKeeper reachable again: worker id {} reservation written to {}", workerId, target);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // shutting down: the cache file holds the reservation
            } catch (Exception e) {
                // The cache file holds the reservation; the node catches up at the next renewal.
                if (reportedOutage.compareAndSet(false, true)) {
                    log.warn("Could not write the reservation of worker id {} to ZooKeeper ({}); issuing goes on "
                            + "from the cache file {}, the node is written again at the next renewal", workerId,
                            e.toString(), cache.path());
                }
            }
        }
    }
}
