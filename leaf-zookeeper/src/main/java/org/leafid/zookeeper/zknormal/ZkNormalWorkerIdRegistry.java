package org.leafid.zookeeper.zknormal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.leafid.core.Durations;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.LeaseOwner;
import org.leafid.core.worker.RegistryWriter;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.StartReservation;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WriteThroughSink;
import org.leafid.zookeeper.WorkerNode;
import org.leafid.zookeeper.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code zk_normal}, Leaf's scheme: a persistent sequential node
 * {@code /snowflake/{name}/forever/{ip}:{port}-{seq}} per instance, whose sequence number is the
 * worker id for good. Every reservation is written to the cache file and then to the node before it
 * is used ({@link WriteThroughSink}): a second process of the same address can take the id once this
 * one's session expires, so a reservation ZooKeeper has not confirmed does not count, and the holder
 * stops issuing once its last confirmed one runs out (2 x the report interval) during an outage.
 * ZooKeeper unreachable at start: the start fails naming it (no cached id is provably this
 * process's; the cache file still binds the next start to its last reservation).
 *
 * <p>Drop-in for Meituan Leaf: an existing node of this ip:port, Leaf's or ours, is taken over
 * with its worker id, issuing only after its timestamp; node data keeps Leaf's exact shape
 * ({@link WorkerNode}), and a graceful stop leaves a timestamp Leaf's start check accepts.
 *
 * <p>The id is the address's for good, but it is held by one process at a time: a live process
 * owns an ephemeral node {@code /snowflake/{name}/live/{ip}:{port}} (its session's, with its
 * {@link LeaseOwner} as data). A second live process of the same address is refused: it waits at
 * most {@code liveWait} for that node to go (a process killed without a goodbye leaves it until
 * ZooKeeper expires its session), then stops naming the holder. A graceful stop deletes the
 * node, so a restart keeps its id at once. A holder whose renewal finds the node another
 * process's stops issuing ({@link WorkerIdLostException}); one that finds it gone (its session
 * expired while nobody took the address) creates it again.
 */
public final class ZkNormalWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(ZkNormalWorkerIdRegistry.class);

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final InstanceAddress instance;
    private final ReservationFile cache;
    private final Duration connectTimeout;
    private final int maxWorkerId;
    private final Duration liveWait;
    private final LeaseOwner owner;

    /** With Leaf's 10 worker bits: at most 1,024 instances ever registered. */
    public ZkNormalWorkerIdRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            Duration connectTimeout) {
        this(zk, paths, instance, cache, connectTimeout, SnowflakeLayout.MAX_WORKER_ID, connectTimeout);
    }

    /**
     * @param cache this server's cache file, written at every renewal
     * @param maxWorkerId the layout's largest worker id: a node whose sequence is above it is refused
     *     (Meituan Leaf's own limit is 1023, its 10 bits)
     * @param liveWait how long a start waits for another process's live node of this address to go
     *     before it is refused: the session timeout, so that a restart after a kill waits for the
     *     dead session to expire
     */
    public ZkNormalWorkerIdRegistry(CuratorFramework zk, ZkPaths paths, InstanceAddress instance, ReservationFile cache,
            Duration connectTimeout, int maxWorkerId, Duration liveWait) {
        this.zk = zk;
        this.paths = paths;
        this.instance = instance;
        this.cache = cache;
        this.connectTimeout = connectTimeout;
        this.maxWorkerId = maxWorkerId;
        this.liveWait = liveWait;
        this.owner = LeaseOwner.newProcess(instance);
    }

    @Override
    public Registration register() {
        Optional<ReservationFile.Recorded> cached = cache.read();
        if (!connected()) {
            throw new WorkerIdUnavailableException("ZooKeeper (leaf.snowflake.zk.address) could not be reached within "
                    + Durations.format(connectTimeout) + ": zk_normal needs it at start to know that no other process "
                    + "of " + instance + " holds its worker id (no cached id is safe without it); start ZooKeeper or "
                    + "fix the address, then start again");
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
            claimLive();
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

    private WriteThroughSink sink(String node) {
        return new WriteThroughSink(cache, new NodeWriter(node), log);
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

    /**
     * Creates this process's live node of the address, waiting at most {@link #liveWait} for
     * another's to go; refused when it stays (a second live process of the address).
     */
    private void claimLive() throws Exception {
        String path = paths.live(instance.key());
        byte[] mine = owner.key().getBytes(StandardCharsets.UTF_8);
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, mine);
                return;
            } catch (KeeperException.NodeExistsException e) {
                CountDownLatch gone = new CountDownLatch(1);
                Stat held = zk.checkExists().usingWatcher((CuratorWatcher) event -> gone.countDown()).forPath(path);
                if (held == null) {
                    continue; // went between the create and the look
                }
                if (attempt == 0) {
                    log.warn("Snowflake mode zk_normal: the worker id of {} is held by another process ({}); waiting up "
                            + "to {} for it to go (a process killed without a stop leaves it until its ZooKeeper "
                            + "session expires)", instance, holderOf(path), Durations.format(liveWait));
                    if (gone.await(liveWait.toMillis(), TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                }
                throw new WorkerIdUnavailableException("Snowflake mode zk_normal: the worker id of " + instance
                        + " is held by another live process (" + holderOf(path) + ", its node " + path + " still "
                        + "there after " + Durations.format(liveWait) + "). Two servers share the address " + instance
                        + ": stop the other one, or give each its own leaf.snowflake.ip or port");
            }
        }
        throw new WorkerIdUnavailableException("Snowflake mode zk_normal: the live node " + path + " of " + instance
                + " keeps coming and going: another process of the address is starting too; start again");
    }

    private String holderOf(String livePath) {
        try {
            return new String(zk.getData().forPath(livePath), StandardCharsets.UTF_8);
        } catch (Exception e) {
            return "unknown: " + e.getMessage();
        }
    }

    /**
     * Whether this process still holds the address: its live node is recreated when gone (a
     * session that expired, a start from the cache file); another's means the id is lost.
     */
    private void checkLive(int workerId) throws Exception {
        String path = paths.live(instance.key());
        String holder;
        try {
            holder = new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException e) {
            try {
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                        .forPath(path, owner.key().getBytes(StandardCharsets.UTF_8));
                return;
            } catch (KeeperException.NodeExistsException raced) {
                holder = holderOf(path);
            }
        }
        if (!holder.equals(owner.key())) {
            throw new WorkerIdLostException("worker id " + workerId + " of " + instance + " is held by another live "
                    + "process (" + holder + ", " + path + "), not this one (" + owner + "): two servers share the "
                    + "address. This one stops issuing; give each its own leaf.snowflake.ip or port");
        }
    }

    /** Deletes this process's live node at a graceful stop, so that a restart gets the id at once. */
    private void leaveLive() throws Exception {
        String path = paths.live(instance.key());
        Stat stat = new Stat();
        try {
            byte[] data = zk.getData().storingStatIn(stat).forPath(path);
            if (owner.key().equals(new String(data, StandardCharsets.UTF_8))) {
                zk.delete().withVersion(stat.getVersion()).forPath(path);
            }
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
            // gone already (session expired) or changed hands: not ours to delete
        }
    }

    private static int sequenceOf(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
    }

    /** Writes the reservation into the node, after the cache file ({@link WriteThroughSink}). */
    private final class NodeWriter implements RegistryWriter {

        private final String node;

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
                // Not worth a Curator wait: the renewal fails now and is tried again at the next tick.
                throw new KeeperException.ConnectionLossException();
            }
            checkLive(workerId);
            zk.setData().forPath(node, new WorkerNode(instance.ip(), instance.port(), reservedUntilMillis).toBytes());
            if (finalWrite) {
                leaveLive();
            }
            return true;
        }

        @Override
        public Failure describe(Exception failure, int workerId, long reservedUntilMillis) {
            if (failure instanceof KeeperException.ConnectionLossException) {
                return Failure.warning("ZooKeeper unreachable: worker id " + workerId + " issues only until its last "
                        + "confirmed reservation runs out, and again once its node is written");
            }
            return Failure.warning("Could not write the reservation of worker id " + workerId + " to ZooKeeper ("
                    + failure + "); IDs stop when the last confirmed reservation runs out, and the node is written "
                    + "again at the next renewal");
        }

        @Override
        public String recovered(int workerId) {
            return "ZooKeeper reachable again: worker id " + workerId + " reservation written to " + node;
        }
    }
}
