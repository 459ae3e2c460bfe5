package org.leafid.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.leafid.core.Durations;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.RegistryWriter;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.StartReservation;
import org.leafid.core.worker.WriteBehindSink;
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
    private final int maxWorkerId;

    /** With Leaf's 10 worker bits: at most 1,024 instances ever registered. */
    public ZookeeperNormalRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            MeituanLeafCacheFile leafCache, Duration connectTimeout, Executor nodeWriter) {
        this(zk, paths, instance, cache, leafCache, connectTimeout, nodeWriter, SnowflakeLayout.MAX_WORKER_ID);
    }

    /**
     * @param cache this server's cache file, written at every renewal
     * @param leafCache Meituan Leaf's cache file, read only when ZooKeeper is down at start and
     *     {@code cache} does not exist
     * @param nodeWriter runs the node updates of renewals (one at a time); {@code Runnable::run}
     *     writes in the renewing thread
     * @param maxWorkerId the layout's largest worker id: a node whose sequence is above it is refused
     *     (Meituan Leaf's own limit is 1023, its 10 bits)
     */
    public ZookeeperNormalRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            MeituanLeafCacheFile leafCache, Duration connectTimeout, Executor nodeWriter, int maxWorkerId) {
        this.zk = zk;
        this.paths = paths;
        this.instance = instance;
        this.cache = cache;
        this.leafCache = leafCache;
        this.connectTimeout = connectTimeout;
        this.nodeWriter = nodeWriter;
        this.maxWorkerId = maxWorkerId;
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
            if (workerId > maxWorkerId) {
                // This instance's node, made under a layout with more worker bits than the present one.
                throw new WorkerIdUnavailableException("The node " + node + " of " + instance + " gives worker id "
                        + workerId + ", beyond " + maxWorkerId + ", the largest of the layout's worker bits "
                        + "(leaf.snowflake.layout, .worker-bits). Keep the layout its IDs were issued with");
            }
            // Meituan Leaf writes the last time it saw (its IDs may carry that time), this server
            // the time its IDs stay below; data alone cannot tell who wrote it, so IDs start after it.
            StartReservation start = StartReservation.of(cached, workerId,
                    WorkerNode.parse(node, zk.getData().forPath(node)).timestamp() + 1);
            if (start.cacheOverruled()) {
                log.warn("Snowflake mode zk_normal: the cache {} holds worker id {}, but the node {} of {} gives {}; "
                        + "the node wins", cache.path(), cached.get().workerId(), node, instance, workerId);
            }
            long recorded = start.reservedUntilMillis();
            log.info("Snowflake mode zk_normal: {} holds worker id {} ({}), IDs from {} on", instance, workerId, node,
                    recorded);
            return new Registration(workerId, recorded, sink(node));
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
            return new Registration(cached.get().workerId(), cached.get().reservedUntilMillis(), sink(null));
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
        return new Registration(workerId, 0, sink(null));
    }

    /** The start's warnings do not say how node writes fare, so the first failed write is logged in any case. */
    private WriteBehindSink sink(String node) {
        return new WriteBehindSink(cache, new NodeWriter(node), nodeWriter, log, false);
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
        if (sequenceOf(created) > maxWorkerId) {
            zk.delete().forPath(created);
            throw new WorkerIdUnavailableException("ZooKeeper handed out sequence " + sequenceOf(created) + " under "
                    + paths.forever() + ": more than " + (maxWorkerId + 1L) + " instances were ever "
                    + "registered, and worker ids are 0.." + maxWorkerId + " in this layout. Use zk_recycle, or a new "
                    + "leaf.name");
        }
        log.info("Registered {} as {}", instance, created);
        return created;
    }

    private static int sequenceOf(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
    }

    /** Writes the reservation into the node, behind the cache file ({@link WriteBehindSink}). */
    private final class NodeWriter implements RegistryWriter {

        /** Null after a start from a cache file: found or created once ZooKeeper answers. */
        private String node;

        NodeWriter(String node) {
            this.node = node;
        }

        /**
         * Called one at a time (the sink's registry lock), so {@code node} needs no more guarding.
         * Renewals and the release both set the node's time as given: the final one is at or before
         * the clock at stop, so Meituan Leaf's start check accepts the node.
         */
        @Override
        public boolean write(int workerId, long reservedUntilMillis, boolean finalWrite) throws Exception {
            if (!zk.getZookeeperClient().isConnected()) {
                // Not worth a Curator wait: the cache file holds the reservation meanwhile.
                throw new KeeperException.ConnectionLossException();
            }
            String target = node != null ? node : (node = findOrCreateNode());
            if (sequenceOf(target) != workerId) {
                log.error("{} is registered as {} in ZooKeeper, but issues with worker id {} from its cache file; "
                        + "the node is left alone. Restart the instance once ZooKeeper is healthy", instance, target,
                        workerId);
                return false;
            }
            zk.setData().forPath(target, new WorkerNode(instance.ip(), instance.port(), reservedUntilMillis).toBytes());
            return true;
        }

        @Override
        public Failure describe(Exception failure, int workerId, long reservedUntilMillis) {
            if (failure instanceof KeeperException.ConnectionLossException) {
                return Failure.warning("ZooKeeper unreachable: worker id " + workerId + " keeps issuing on the "
                        + "reservation in " + cache.path() + "; the node is updated when ZooKeeper is back");
            }
            return Failure.warning("Could not write the reservation of worker id " + workerId + " to ZooKeeper ("
                    + failure + "); issuing goes on from the cache file " + cache.path() + ", the node is written "
                    + "again at the next renewal");
        }

        @Override
        public String recovered(int workerId) {
            return "ZooKeeper reachable again: worker id " + workerId + " reservation written to " + node;
        }
    }
}
