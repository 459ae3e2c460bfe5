package org.leafid.zookeeper.witness;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.witness.WitnessException;
import org.leafid.core.witness.WitnessedBlocks;

/**
 * The fleet's witness of segment reservations in ZooKeeper: one node per tag,
 * {@code /leaf/witness/<namespace>/leaf_alloc/<tag>} ({@code /leaf/witness/<namespace>/id_alloc/<app:shard>}
 * for shard rows), holding its last {@value #KEPT_BLOCKS} blocks
 * ({@link WitnessedBlocks}). A claim reads the node and writes it back with the version it read (a
 * compare-and-set, tried again when another server wrote between), so that every block of the fleet is
 * checked against every other; one round trip to read and one to write per block. ZooKeeper writes to
 * a quorum's disks before it answers, so the witness outlives any one ZooKeeper server.
 */
public final class ZkReservationWitness implements FleetReservationWitness {

    /** Blocks kept per tag, as in Redis's witness. */
    static final int KEPT_BLOCKS = 64;
    /** Compare-and-set attempts before a claim gives up: only many servers claiming one tag at once need more than one. */
    private static final int ATTEMPTS = 100;

    private final CuratorFramework zookeeper;
    private final String namespace;
    private final String table;
    private final String root;

    /** @param namespace the fleet's name in the path: fleets that share a ZooKeeper have one each */
    public ZkReservationWitness(CuratorFramework zookeeper, String namespace) {
        this(zookeeper, namespace, "leaf_alloc");
    }

    private ZkReservationWitness(CuratorFramework zookeeper, String namespace, String table) {
        this.zookeeper = zookeeper;
        this.namespace = namespace;
        this.table = table;
        this.root = "/leaf/witness/" + namespace + "/" + table + "/";
    }

    @Override
    public ZkReservationWitness forTable(String table) {
        return new ZkReservationWitness(zookeeper, namespace, table);
    }

    @Override
    public long claim(String key, long start, long end) {
        if (end <= start) {
            throw new IllegalArgumentException("a block is [start, end) with start < end: [" + start + ", " + end + ")");
        }
        String path = root + key;
        // One id for every attempt: a write that landed although its answer was lost is found as this claim's.
        String claim = WitnessedBlocks.newClaimId();
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Stat stat = new Stat();
                WitnessedBlocks witnessed = read(path, stat);
                if (witnessed == null) {
                    try {
                        byte[] first = WitnessedBlocks.EMPTY.claim(start, end, claim, KEPT_BLOCKS).next().toBytes();
                        zookeeper.create().creatingParentsIfNeeded().forPath(path, first);
                        return Long.MIN_VALUE;
                    } catch (KeeperException.NodeExistsException another) {
                        continue; // another server created it first: read it
                    }
                }
                WitnessedBlocks.Claimed claimed = witnessed.claim(start, end, claim, KEPT_BLOCKS);
                if (claimed.next() != witnessed) {
                    try {
                        zookeeper.setData().withVersion(stat.getVersion()).forPath(path, claimed.next().toBytes());
                    } catch (KeeperException.BadVersionException another) {
                        continue; // another server claimed a block of this key between: read again
                    }
                }
                return switch (claimed.outcome()) {
                    case RECORDED -> Long.MIN_VALUE;
                    case WENT_BACK -> claimed.witnessedEnd();
                    case FOUND_TWICE -> throw new FoundTwiceException(table, key, "ZooKeeper node " + path);
                };
            }
            throw new WitnessException("Tag '" + key + "': " + ATTEMPTS + " servers' claims came between this one's"
                    + " read and write of " + path + "; block [" + start + ", " + end + ") is not served");
        } catch (WitnessException | FoundTwiceException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("interrupted while claiming a block in the witness", e);
        } catch (Exception e) {
            throw new WitnessException("Tag '" + key + "': ZooKeeper, the fleet's witness of reservations"
                    + " (leaf.witness.fleet=zookeeper), did not record block [" + start + ", " + end + "), so nothing"
                    + " of it is served: " + e + "; check leaf.snowflake.zk.address", e);
        }
    }

    @Override
    public boolean release(String key) {
        String path = root + key;
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Stat stat = new Stat();
                WitnessedBlocks witnessed = read(path, stat);
                if (witnessed == null || !witnessed.twice()) {
                    return false;
                }
                try {
                    zookeeper.setData().withVersion(stat.getVersion()).forPath(path, witnessed.released().toBytes());
                    return true;
                } catch (KeeperException.BadVersionException another) {
                    // a claim came between: read again
                }
            }
            throw new WitnessException(ATTEMPTS + " claims came between the release's read and write of " + path);
        } catch (WitnessException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("interrupted while releasing " + path, e);
        } catch (Exception e) {
            throw new WitnessException("ZooKeeper did not release " + path + ": " + e, e);
        }
    }

    /** The node's blocks, its version put in {@code stat}; null when there is no node yet. */
    private WitnessedBlocks read(String path, Stat stat) throws Exception {
        try {
            byte[] node = zookeeper.getData().storingStatIn(stat).forPath(path);
            return WitnessedBlocks.parse(node, "ZooKeeper node " + path);
        } catch (KeeperException.NoNodeException none) {
            return null;
        }
    }
}
