package org.leafid.server.worker.zk;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.WorkerIdUnavailableException;
import org.leafid.core.snowflake.ReservationSink;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdRegistry;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.ReservationFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code zk_normal}, Leaf's scheme: a persistent sequential node
 * {@code /snowflake/{name}/forever/{ip}:{port}-{seq}} per instance, whose sequence number is the
 * worker id for good. The reservation is written to the cache file (which must succeed) and to
 * the node (best effort: the id is this instance's forever, so a ZooKeeper outage does not stop
 * issuing). ZooKeeper unreachable at start: the cache file is used under the same rule.
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
    private final Duration connectTimeout;
    private final Executor nodeWriter;

    /**
     * @param nodeWriter runs the node updates of renewals (one at a time); {@code Runnable::run}
     *     writes in the renewing thread
     */
    public ZookeeperNormalRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            Duration connectTimeout, Executor nodeWriter) {
        this.zk = zk;
        this.paths = paths;
        this.instance = instance;
        this.cache = cache;
        this.connectTimeout = connectTimeout;
        this.nodeWriter = nodeWriter;
    }

    @Override
    public Registration register() {
        Optional<ReservationFile.Recorded> cached = cache.read();
        if (!connected()) {
            ReservationFile.Recorded fallback = cached.orElseThrow(() -> new WorkerIdUnavailableException(
                    "ZooKeeper (leaf.snowflake.zk.address) could not be reached within " + connectTimeout.toMillis()
                            + " ms and there is no cache file " + cache.path() + " to start from; start ZooKeeper "
                            + "or fix the address, then start again"));
            log.warn("ZooKeeper unreachable at start: {} uses worker id {} and reservation {} from {}", instance,
                    fallback.workerId(), fallback.reservedUntilMillis(), cache.path());
            return new Registration(fallback.workerId(), fallback.reservedUntilMillis(), new Sink(null));
        }
        try {
            String node = findOrCreateNode();
            int workerId = sequenceOf(node);
            long recorded = WorkerNode.parse(node, zk.getData().forPath(node)).timestamp();
            if (cached.isPresent() && cached.get().workerId() == workerId) {
                recorded = Math.max(recorded, cached.get().reservedUntilMillis());
            }
            log.info("Snowflake mode zk_normal: {} holds worker id {} ({}), recorded reservation {}", instance,
                    workerId, node, recorded);
            return new Registration(workerId, recorded, new Sink(node));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new WorkerIdUnavailableException("Could not register " + instance + " under " + paths.forever()
                    + ": " + e.getMessage(), e);
        }
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
        String created = zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
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
                        writeNode(workerId, reservedUntilMillis);
                    } finally {
                        writing.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                writing.set(false); // shutting down: the cache file holds the reservation
            }
        }

        /** The final reservation: cache file, then the node in this thread, best effort. */
        @Override
        public void release(int workerId, long finalReservationMillis) {
            cache.record(workerId, finalReservationMillis);
            writeNode(workerId, finalReservationMillis);
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
