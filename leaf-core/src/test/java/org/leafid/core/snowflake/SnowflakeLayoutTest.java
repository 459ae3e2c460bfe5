package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.leafid.core.snowflake.SnowflakeLayout.MAX_SEQUENCE;
import static org.leafid.core.snowflake.SnowflakeLayout.MAX_TIMESTAMP;
import static org.leafid.core.snowflake.SnowflakeLayout.MAX_WORKER_ID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.leafid.core.worker.WorkerIdRegistry;

class SnowflakeLayoutTest {

    private final SnowflakeLayout layout = SnowflakeLayout.leafDefault();

    @ParameterizedTest(name = "elapsed={0} worker={1} sequence={2}")
    @CsvSource({
        "0, 0, 0",
        "0, 0, 1",
        "1, 0, 0",
        "0, 1, 0",
        "123456789, 512, 99",
        "2199023255551, 0, 0",        // 2^41 - 1
        "0, 1023, 0",
        "0, 0, 4095",
        "2199023255551, 1023, 4095",  // every bit but the sign bit
        "1099511627776, 1, 4094",     // 2^40: the top timestamp bit alone
    })
    void composeThenDecodeGivesThePartsBack(long elapsed, int workerId, int sequence) {
        long id = layout.compose(elapsed, workerId, sequence);

        assertThat(id).isNotNegative();
        assertThat(layout.decode(id)).isEqualTo(
                new SnowflakeId(id, SnowflakeLayout.DEFAULT_TWEPOCH + elapsed, workerId, sequence));
    }

    @Test
    void largestPartsMakeTheLargestPositiveLong() {
        // The 41 + 10 + 12 bits fill everything below the sign bit, no more and no less.
        assertThat(layout.compose(MAX_TIMESTAMP, MAX_WORKER_ID, MAX_SEQUENCE)).isEqualTo(Long.MAX_VALUE);
        assertThat(MAX_TIMESTAMP).isEqualTo((1L << 41) - 1);
        assertThat(MAX_WORKER_ID).isEqualTo(1023).isEqualTo(WorkerIdRegistry.LEAF_MAX_WORKER_ID);
        assertThat(MAX_SEQUENCE).isEqualTo(4095);
    }

    @Test
    void partsOccupyTheirOwnBits() {
        assertThat(layout.compose(1, 0, 0)).isEqualTo(1L << 22);
        assertThat(layout.compose(0, 1, 0)).isEqualTo(1L << 12);
        assertThat(layout.compose(0, 0, 1)).isEqualTo(1L);
    }

    @Test
    void laterMillisecondAlwaysMakesTheLargerId() {
        // Time ordering must survive any worker id and sequence in the earlier millisecond.
        long earlier = layout.compose(1000, MAX_WORKER_ID, MAX_SEQUENCE);
        long later = layout.compose(1001, 0, 0);

        assertThat(later).isGreaterThan(earlier);
    }

    @Test
    void twepochIsConfigurable() {
        SnowflakeLayout custom = new SnowflakeLayout(1_600_000_000_000L);
        long now = 1_700_000_000_123L;

        long elapsed = custom.elapsed(now);
        SnowflakeId decoded = custom.decode(custom.compose(elapsed, 5, 7));

        assertThat(elapsed).isEqualTo(100_000_000_123L);
        assertThat(decoded.timestampMillis()).isEqualTo(now);
        assertThat(decoded.time().toEpochMilli()).isEqualTo(now);
        // The same bits mean another time under another epoch.
        assertThat(layout.decode(decoded.id()).timestampMillis())
                .isEqualTo(SnowflakeLayout.DEFAULT_TWEPOCH + 100_000_000_123L);
        assertThat(custom.lastRepresentableMillis()).isEqualTo(1_600_000_000_000L + MAX_TIMESTAMP);
    }

    @Test
    void elapsedIsExactAtBothEndsOfTheRange() {
        long twepoch = layout.twepoch();

        assertThat(layout.elapsed(twepoch)).isZero();
        assertThat(layout.elapsed(twepoch + MAX_TIMESTAMP)).isEqualTo(MAX_TIMESTAMP);
        assertThat(layout.lastRepresentableMillis()).isEqualTo(twepoch + MAX_TIMESTAMP);
    }

    @Test
    void timeBeyondFortyOneBitsIsRefused() {
        long tooLate = layout.twepoch() + MAX_TIMESTAMP + 1;

        assertThatThrownBy(() -> layout.elapsed(tooLate))
                .isInstanceOf(TimestampOverflowException.class)
                .satisfies(e -> {
                    TimestampOverflowException overflow = (TimestampOverflowException) e;
                    assertThat(overflow.nowMillis()).isEqualTo(tooLate);
                    assertThat(overflow.twepoch()).isEqualTo(layout.twepoch());
                });
    }

    @Test
    void timeBeforeTwepochIsRefused() {
        assertThatThrownBy(() -> layout.elapsed(layout.twepoch() - 1))
                .isInstanceOf(TimestampOverflowException.class);
    }

    @Test
    void negativeTwepochIsRejected() {
        assertThatThrownBy(() -> new SnowflakeLayout(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeIdDoesNotDecode() {
        assertThatThrownBy(() -> layout.decode(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
