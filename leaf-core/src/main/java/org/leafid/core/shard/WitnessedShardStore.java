package org.leafid.core.shard;

import java.util.List;
import org.leafid.core.SaturatedMath;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.segment.ReservationWitness;
import org.leafid.core.segment.SegmentLoadListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code id_alloc} whose every block is witnessed before it is handed on, for the Redis buffer's
 * refills ({@code leaf.shard.buffer=redis}), which push whole blocks into Redis lists without the
 * memory buffer's generator. The rule is the generator's: a block below this server's own witness
 * (its data directory) is carried past it, with a margin of {@code wentBackSkipBlocks} blocks for
 * other servers' reservations unless the witness is fleet-wide; a block the fleet's witness says
 * overlaps one already reserved is carried to the witnessed end exactly. Only the part of the block
 * at or above that end is handed on: a gap, never a repeat. Keys {@code "app:shard"}, as the memory
 * buffer's, so the two share one witness. Thread-safe.
 */
public final class WitnessedShardStore implements ShardStore {

    private static final Logger log = LoggerFactory.getLogger(WitnessedShardStore.class);
    /** Reservations to carry a row past a witness before the block is refused. */
    private static final int MAX_CATCH_UPS = 4;

    private final ShardStore store;
    private final ReservationWitness witness;
    private final long wentBackSkipBlocks;
    private final SegmentLoadListener wentBack;

    /**
     * @param wentBackSkipBlocks blocks left unused above this server's witness when a row is found
     *     below it ({@code leaf.jdbc.went-back-skip-blocks})
     * @param wentBack told of each block that went back ({@code leaf_store_went_back_total})
     */
    public WitnessedShardStore(ShardStore store, ReservationWitness witness, long wentBackSkipBlocks,
            SegmentLoadListener wentBack) {
        this.store = store;
        this.witness = witness;
        this.wentBackSkipBlocks = wentBackSkipBlocks;
        this.wentBack = wentBack;
    }

    @Override
    public ShardBlock reserve(int appId, int shardId, int blocks) {
        String key = ShardSegmentStore.tag(appId, shardId);
        ShardBlock block = store.reserve(appId, shardId, blocks);
        long floor = Long.MIN_VALUE;
        long own = witness.witnessed(key);
        if (block.firstIndex() < own) {
            floor = SaturatedMath.add(own,
                    witness.fleetWide() ? 0 : SaturatedMath.multiply(wentBackSkipBlocks, block.size()));
            wentBack(key, block, floor, "this server's witness in its data directory holds up to " + own
                    + ", and a margin of " + wentBackSkipBlocks + " blocks is left for other servers");
        }
        for (int claims = 0; ; claims++) {
            for (int catchUps = 0; catchUps < MAX_CATCH_UPS && block.lastIndex() < floor; catchUps++) {
                long behind = floor - block.lastIndex();
                long rows = Math.min(Integer.MAX_VALUE, behind / Math.max(1, block.rowStep()) + blocks);
                block = store.reserve(appId, shardId, (int) rows);
            }
            if (block.lastIndex() < floor) {
                throw new ShardStoreException("App " + appId + " shard " + shardId + ": id_alloc's max_id is "
                        + block.lastIndex() + ", not past " + floor + " (what was reserved before it went back), even"
                        + " after " + MAX_CATCH_UPS + " reservations to catch up: nothing of it is served; set max_id"
                        + " above " + floor, null);
            }
            long first = Math.max(block.firstIndex(), floor);
            long witnessedEnd;
            try {
                witnessedEnd = witness.claim(key, first, block.lastIndex() + 1);
            } catch (FoundTwiceException e) {
                throw new ShardStoreException(e.getMessage(), e);
            }
            if (witnessedEnd == Long.MIN_VALUE) {
                return first == block.firstIndex() ? block
                        : new ShardBlock(appId, shardId, first, block.lastIndex(), block.rowStep());
            }
            if (claims == MAX_CATCH_UPS) {
                throw new ShardStoreException("App " + appId + " shard " + shardId + ": every block id_alloc answered"
                        + " overlapped one the fleet's witness holds, even after " + MAX_CATCH_UPS + " reservations"
                        + " to pass its end (" + witnessedEnd + "): nothing of them is served; set max_id above "
                        + witnessedEnd, null);
            }
            wentBack(key, block, witnessedEnd, "the fleet's witness holds blocks up to " + witnessedEnd);
            floor = Math.max(floor, witnessedEnd);
        }
    }

    @Override
    public List<ShardApp> apps() {
        return store.apps();
    }

    private void wentBack(String key, ShardBlock block, long floor, String why) {
        log.warn("App {} shard {}: id_alloc answered indexes {}..{}, below indexes already reserved ({}): the row"
                + " went back (a failover to a lagging replica, a restored backup, or max_id set back with its"
                + " leaf_high_water mark). Nothing below {} is served; the row is carried past it. Check that the"
                + " database is the one Leaf last wrote to, and who set the row back", block.appId(),
                block.shardId(), block.firstIndex(), block.lastIndex(), why, floor);
        wentBack.wentBack(key, block.firstIndex(), floor);
    }
}
