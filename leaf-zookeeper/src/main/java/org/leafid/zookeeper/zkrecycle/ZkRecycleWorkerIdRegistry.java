package org.leafid.zookeeper.zkrecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationSink;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.zookeeper.WorkerNode;
import org.leafid.zookeeper.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code zk_recycle}: worker ids 0–1023 (fewer with a layout of fewer than 10 worker bits; never
 * more, see {@link #POOL_LIMIT}) live as nodes under {@code recycle/notuse} and
 * {@code recycle/inuse}. Taking one moves its node in a single ZooKeeper transaction (delete
 * from notuse at the version read, create in inuse), so two instances never get the same id.
 * Each renewal rewrites the inuse node while it is still the one this instance created (the
 * heartbeat); a {@link RecycleSweeper} returns ids whose heartbeat is older than the lease. The
 * lowest free id is taken first, so a swept id is reused soon and its recorded reservation is
 * honoured.
 */
public final class ZkRecycleWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(ZkRecycleWorkerIdRegistry.class);

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final InstanceAddress instance;
    private final Duration connectTimeout;
    /** The largest id taken: the layout's, at most {@code POOL_LIMIT - 1}. */
    private final int maxPoolId;

    /**
     * The most ids a pool holds, whatever the layout's worker bits: the pool is created in one
     * ZooKeeper transaction and listed on every start, which 2^20 nodes would not survive; ids are
     * recycled, so 1,024 is 1,024 instances running at once. Leaf's 10 bits give exactly this.
     */
    static final int POOL_LIMIT = SnowflakeLayout.MAX_WORKER_ID + 1;

    /** With Leaf's 10 worker bits: ids 0..1023. */
    public ZkRecycleWorkerIdRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance,
            Duration connectTimeout) {
        this(zk, paths, instance, connectTimeout, SnowflakeLayout.MAX_WORKER_ID);
    }

    /**
     * @param maxWorkerId the layout's largest worker id: a pool created here has ids up to it (at
     *     most 1023), and ids above it in an existing pool (made for a wider layout) are never taken
     */
    public ZkRecycleWorkerIdRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance,
            Duration connectTimeout, int maxWorkerId) {
        if (maxWorkerId < 0) {
            throw new IllegalArgumentException("maxWorkerId must not be negative: " + maxWorkerId);
        }
        this.zk = zk;
        this.paths = paths;
        this.instance = instance;
        this.connectTimeout = connectTimeout;
        this.maxPoolId = Math.min(maxWorkerId, POOL_LIMIT - 1);
    }

    @Override
    public Registration register() {
        awaitConnected();
        try {
            createPoolIfMissing();
            List<Integer> free = freeIds();
            for (int id : free) {
                Stat stat = new Stat();
                WorkerNode returned;
                try {
                    returned = WorkerNode.parse(paths.notInUse(id),
                            zk.getData().storingStatIn(stat).forPath(paths.notInUse(id)));
                } catch (KeeperException.NoNodeException e) {
                    continue; // another instance took it since the listing
                }
                WorkerNode mine = new WorkerNode(instance.ip(), instance.port(), returned.timestamp());
                try {
                    zk.transaction().forOperations(
                            zk.transactionOp().delete().withVersion(stat.getVersion()).forPath(paths.notInUse(id)),
                            zk.transactionOp().create().forPath(paths.inUse(id), mine.toBytes()));
                } catch (KeeperException.NoNodeException | KeeperException.BadVersionException
                        | KeeperException.NodeExistsException e) {
                    continue; // lost the race for this id: try the next
                }
                Stat created = zk.checkExists().forPath(paths.inUse(id));
                log.info("Snowflake mode zk_recycle: {} took worker id {}, recorded reservation {}", instance, id,
                        returned.timestamp());
                return new Registration(id, returned.timestamp(), new Heartbeat(id, created));
            }
            throw new WorkerIdUnavailableException("All " + (maxPoolId + 1) + " worker ids under "
                    + paths.recycle() + " that the layout's worker bits carry are in use; stop an instance, or wait for the sweeper to return the ids of "
                    + "dead ones (leaf.snowflake.recycle.lease)");
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new WorkerIdUnavailableException("Could not take a worker id under " + paths.recycle() + ": "
                    + e.getMessage(), e);
        }
    }

    private void awaitConnected() {
        try {
            if (!zk.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new WorkerIdUnavailableException("ZooKeeper (leaf.snowflake.zk.address) could not be reached "
                        + "within " + connectTimeout.toMillis() + " ms; zk_recycle needs it to take a worker id. Start "
                        + "ZooKeeper or fix the address");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("ZooKeeper to connect", e);
        }
    }

    /** Creates the pool with every id free, once per cluster; a concurrent creator wins harmlessly. */
    private void createPoolIfMissing() throws Exception {
        if (zk.checkExists().forPath(paths.recycle()) != null) {
            return;
        }
        if (zk.checkExists().forPath(paths.root()) == null) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(paths.root());
            } catch (KeeperException.NodeExistsException e) {
                // created concurrently by another instance
            }
        }
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(zk.transactionOp().create().forPath(paths.recycle()));
        ops.add(zk.transactionOp().create().forPath(paths.notInUse()));
        ops.add(zk.transactionOp().create().forPath(paths.inUse()));
        byte[] fresh = new WorkerNode("", 0, 0).toBytes();
        for (int id = 0; id <= maxPoolId; id++) {
            ops.add(zk.transactionOp().create().forPath(paths.notInUse(id), fresh));
        }
        try {
            zk.transaction().forOperations(ops);
            log.info("Created the pool of {} worker ids under {}", maxPoolId + 1, paths.recycle());
        } catch (KeeperException.NodeExistsException e) {
            // another instance created the pool at the same time
        }
    }

    private List<Integer> freeIds() throws Exception {
        List<Integer> ids = new ArrayList<>();
        for (String child : zk.getChildren().forPath(paths.notInUse())) {
            int id = Integer.parseInt(child);
            if (id <= maxPoolId) { // a pool made for more worker bits than this layout has
                ids.add(id);
            }
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    /**
     * Writes the reservation to this instance's inuse node: the heartbeat. The node is
     * recognised by its creation zxid, not by its version alone: after a sweep another
     * instance's node at the same path starts again from version 0, so a remembered version can
     * match a node that is no longer ours.
     */
    private final class Heartbeat implements ReservationSink {

        private final int workerId;
        private final long createdZxid;

        Heartbeat(int workerId, Stat created) {
            this.workerId = workerId;
            this.createdZxid = created.getCzxid();
        }

        @Override
        public void record(int id, long reservedUntilMillis) {
            if (!zk.getZookeeperClient().isConnected()) {
                throw new WorkerIdUnavailableException("ZooKeeper unreachable: the heartbeat of worker id " + workerId
                        + " could not be written");
            }
            byte[] data = new WorkerNode(instance.ip(), instance.port(), reservedUntilMillis).toBytes();
            String node = paths.inUse(workerId);
            try {
                try {
                    zk.setData().withVersion(currentVersionIfMine()).forPath(node, data);
                } catch (KeeperException.BadVersionException e) {
                    // Curator retries a write whose answer a connection loss swallowed; when the
                    // first attempt had landed, the retry meets its own version. Still our node: write again.
                    zk.setData().withVersion(currentVersionIfMine()).forPath(node, data);
                }
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
                throw lost();
            } catch (WorkerIdLostException e) {
                throw e;
            } catch (Exception e) {
                throw new WorkerIdUnavailableException("The heartbeat of worker id " + workerId + " failed: "
                        + e.getMessage(), e);
            }
        }

        /** The version of the inuse node while it is the one this instance created. */
        private int currentVersionIfMine() throws Exception {
            Stat stat = zk.checkExists().forPath(paths.inUse(workerId));
            if (stat == null || stat.getCzxid() != createdZxid) {
                throw lost();
            }
            return stat.getVersion();
        }

        private WorkerIdLostException lost() {
            return new WorkerIdLostException("worker id " + workerId + " was returned to the pool (its heartbeat "
                    + "was older than leaf.snowflake.recycle.lease) and may be another instance's now");
        }

        /** Hands the id back to the pool carrying the final reservation, in one transaction. */
        @Override
        public void release(int id, long finalReservationMillis) {
            try {
                zk.transaction().forOperations(
                        zk.transactionOp().delete().withVersion(currentVersionIfMine()).forPath(paths.inUse(workerId)),
                        zk.transactionOp().create().forPath(paths.notInUse(workerId),
                                new WorkerNode("", 0, finalReservationMillis).toBytes()));
                log.info("Returned worker id {} to the pool with reservation {}", workerId, finalReservationMillis);
            } catch (Exception e) {
                throw new WorkerIdUnavailableException("Could not return worker id " + workerId + " to the pool ("
                        + e.getMessage() + "); the sweeper will, after leaf.snowflake.recycle.lease", e);
            }
        }
    }
}
