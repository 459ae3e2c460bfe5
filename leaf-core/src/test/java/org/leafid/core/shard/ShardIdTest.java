package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShardIdTest {

    @Test
    void composeAndDecodeRoundTripForEveryShardAndTheEdgeAppIds() {
        for (int appId : new int[] {0, 1, 255}) {
            for (int shardId = 0; shardId < 64; shardId++) {
                for (long index : new long[] {1, 2, 262_143, ShardId.MAX_INDEX}) {
                    long id = ShardId.compose(appId, shardId, index);
                    assertThat(id).isPositive();
                    assertThat(id).isEqualTo(index << 14 | (long) shardId << 8 | appId);
                    assertThat(ShardId.decode(id)).isEqualTo(new ShardId(id, appId, shardId, index));
                }
            }
        }
    }

    @Test
    void theLayoutMatchesTheirFormulaOnAKnownValue() {
        // index 5, shard 63, app 255: 5 * 16384 + 63 * 256 + 255
        assertThat(ShardId.compose(255, 63, 5)).isEqualTo(81_920 + 16_128 + 255);
    }

    @Test
    void partsOutsideTheLayoutAreRefused() {
        assertThatThrownBy(() -> ShardId.compose(256, 0, 1)).hasMessageContaining("app id must be 0..255");
        assertThatThrownBy(() -> ShardId.compose(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardId.compose(0, 64, 1)).hasMessageContaining("shard id must be 0..63");
        assertThatThrownBy(() -> ShardId.compose(0, 0, 0)).hasMessageContaining("index must be 1..");
        assertThatThrownBy(() -> ShardId.compose(0, 0, ShardId.MAX_INDEX + 1)).isInstanceOf(
                IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardId.decode(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> ShardId.decode(-5)).hasMessageContaining("positive");
        assertThatThrownBy(() -> ShardId.decode(16_383)).hasMessageContaining("index 0");
        assertThatThrownBy(() -> new ShardId(99, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shardOfIsTheirFormulaEvenForIntegerMinValue() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        // Math.abs(MIN_VALUE) is MIN_VALUE, and MIN_VALUE % 64 is 0.
        assertThat(ShardId.shardOf("polygenelubricants")).isZero();
        for (String gatePass : new String[] {"alice", "13800138000", "bob@example.com", "张三", "Zoë Ünal", "",
                "\uD83D\uDE00 emoji", "polygenelubricants"}) {
            assertThat(ShardId.shardOf(gatePass))
                    .as(gatePass)
                    .isEqualTo(Math.abs(gatePass.hashCode()) % 64)
                    .isBetween(0, 63);
        }
        // Their service's answers, worked out once from String.hashCode: a "fixed" formula fails here.
        assertThat(ShardId.shardOf("张三")).isEqualTo(41); // hashCode 774,889
        assertThat(ShardId.shardOf("Владимир")).isEqualTo(7); // hashCode -16,346,951: negative
        assertThat(ShardId.shardOf("13800138000")).isEqualTo(48);
    }

    @Test
    void aGatePassOver256CharactersIsRefusedWithTheLimitNamed() {
        assertThat(ShardId.shardOf("x".repeat(256))).isBetween(0, 63);
        assertThatThrownBy(() -> ShardId.shardOf("x".repeat(257)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("257 characters")
                .hasMessageContaining("at most 256");
    }
}
