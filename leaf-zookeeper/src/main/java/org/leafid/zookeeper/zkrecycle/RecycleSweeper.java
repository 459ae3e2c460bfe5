package org.leafid.zookeeper.zkrecycle;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.leafid.core.DaemonThreads;
import org.leafid.zookeeper.WorkerNode;
import org.leafid.zookeeper.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Returns {@code zk_recycle} ids whose heartbeat is older than the lease to the pool. Any
 * instance may sweep. Ages are measured on ZooKeeper's clock, not this machine's: "now" is the
 * mtime of a write to the pool node, the heartbeat is the mtime of the inuse node. The move is a
 * transaction at the version read, so a heartbeat that lands first makes the sweep fail.
 */
public final class RecycleSweeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RecycleSweeper.class);

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final Duration lease;
    private final Duration interval;
    private ScheduledExecutorService scheduler;

    public RecycleSweeper(CuratorFramework zk, ZkPaths paths, Duration lease, Duration interval) {
        this.zk = zk;
        this.paths = paths;
        this.lease = lease;
        this.interval = interval;
    }

    public synchronized void start() {
        if (scheduler != null) {
            throw new IllegalStateException("sweeper already started");
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("leaf-recycle-sweeper"));
        long millis = interval.toMillis();
        scheduler.scheduleWithFixedDelay(this::sweepOrReport, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    /** One sweep; returns how many ids went back to the pool. */
    public int sweep() throws Exception {
        if (!zk.getZookeeperClient().isConnected() || zk.checkExists().forPath(paths.inUse()) == null) {
            return 0;
        }
        long zkNow = zk.setData().forPath(paths.recycle(), new byte[0]).getMtime();
        int swept = 0;
        for (String child : zk.getChildren().forPath(paths.inUse())) {
            int id = Integer.parseInt(child);
            Stat stat = new Stat();
            WorkerNode node;
            try {
                node = WorkerNode.parse(paths.inUse(id), zk.getData().storingStatIn(stat).forPath(paths.inUse(id)));
            } catch (KeeperException.NoNodeException e) {
                continue; // released meanwhile
            }
            long age = zkNow - stat.getMtime();
            if (age <= lease.toMillis()) {
                continue;
            }
            try {
                zk.transaction().forOperations(
                        zk.transactionOp().delete().withVersion(stat.getVersion()).forPath(paths.inUse(id)),
                        zk.transactionOp().create().forPath(paths.notInUse(id),
                                new WorkerNode("", 0, node.timestamp()).toBytes()));
                swept++;
                log.warn("Returned worker id {} of {}:{} to the pool: no heartbeat for {} ms (lease {} ms); its "
                        + "reservation {} is kept for the next taker", id, node.ip(), node.port(), age,
                        lease.toMillis(), node.timestamp());
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException
                    | KeeperException.NodeExistsException e) {
                // a heartbeat, a release or another sweeper got there first
            }
        }
        return swept;
    }

    private void sweepOrReport() {
        try {
            sweep();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("Sweeping stale worker ids failed: {}; the next sweep retries", e.toString());
        }
    }
}
