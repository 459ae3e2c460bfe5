package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardLimitTest {

    @Test
    void maxIndexIsTheLargestIndexWhoseIdIsBelowTheLimitForEveryShard() {
        for (long limit : new long[] {1L << 32, (1L << 32) + 12_345, 1L << 20, Long.MAX_VALUE, 16_385, 40_000}) {
            for (int appId : new int[] {0, 7, 255}) {
                ShardLimit shardLimit = new ShardLimit(appId, limit);
                for (int shardId = 0; shardId < 64; shardId++) {
                    long max = shardLimit.maxIndex(shardId);
                    if (max > 0) {
                        assertThat(ShardId.compose(appId, shardId, max)).isLessThan(limit);
                    }
                    if (max < ShardId.MAX_INDEX) {
                        // The next index would reach the limit (computed without overflow: limit < 2^63).
                        assertThat(BigMath.id(appId, shardId, max + 1)).isGreaterThanOrEqualTo(limit);
                    }
                }
            }
        }
    }

    @Test
    void aLimitOf2To32LeavesEachShard262143Or262144Indexes() {
        ShardLimit limit = new ShardLimit(1, 1L << 32);
        // (2^32 - 1 - low) >> 14 = 262,143 for any low 14 bits.
        for (int shardId = 0; shardId < 64; shardId++) {
            assertThat(limit.maxIndex(shardId)).isEqualTo(262_143);
        }
    }

    @Test
    void noIndexFitsWhenEvenIndexOneWouldReachTheLimit() {
        ShardLimit limit = new ShardLimit(255, 16_384 + (63 << 8 | 255));
        assertThat(limit.maxIndex(63)).isZero(); // 1 << 14 | 63 << 8 | 255 equals the limit
        assertThat(limit.maxIndex(62)).isEqualTo(1);
        assertThat(new ShardLimit(3, 100).maxIndex(0)).isZero();
        assertThat(new ShardLimit(3, 2).maxIndex(0)).isZero(); // limit below the low bits themselves
    }

    @Test
    void zeroMeansNoLimitAndNegativeIsRefused() {
        ShardLimit none = new ShardLimit(9, 0);
        assertThat(none.limited()).isFalse();
        assertThat(none.maxIndex(63)).isEqualTo(ShardId.MAX_INDEX);
        assertThat(new ShardLimit(9, Long.MAX_VALUE).maxIndex(63)).isEqualTo(ShardId.MAX_INDEX);
        assertThatThrownBy(() -> new ShardLimit(9, -1)).hasMessageContaining("use 0 for no limit");
        assertThatThrownBy(() -> none.maxIndex(64)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void headroomIsTheFreeShareOfTheIndexSpace() {
        ShardLimit limit = new ShardLimit(1, 1L << 32); // 262,143 per shard
        assertThat(limit.headroom(Map.of(0, 1L, 1, 1L))).isEqualTo(1.0);
        assertThat(limit.headroom(Map.of(0, 262_144L, 1, 262_144L))).isEqualTo(0.0);
        assertThat(limit.headroom(Map.of(0, 300_000L))).isEqualTo(0.0); // past the limit counts as none
        assertThat(limit.headroom(Map.of(0, 131_072L, 1, 1L))).isCloseTo(0.75, within(1e-5));
        assertThat(limit.headroom(Map.of())).isEqualTo(1.0);
        assertThat(new ShardLimit(1, 0).headroom(Map.of(0, 1L << 48))).isCloseTo(0.5, within(1e-9));
    }

    /** The ID computed exactly; one at or past 2^63 is above every limit, so it counts as Long.MAX_VALUE. */
    private static final class BigMath {
        static long id(int appId, int shardId, long index) {
            BigInteger id = BigInteger.valueOf(index).shiftLeft(14).or(BigInteger.valueOf((long) shardId << 8 | appId));
            return id.bitLength() < 64 ? id.longValueExact() : Long.MAX_VALUE;
        }
    }
}
