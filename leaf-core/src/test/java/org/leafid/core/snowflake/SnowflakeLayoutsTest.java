package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.leafid.core.snowflake.SnowflakeLayout.Unit;

/** Layouts other than Leaf's: widths at their edges, seconds, end dates, and the presets. */
class SnowflakeLayoutsTest {

    @ParameterizedTest(name = "{0}/{1}/{2}")
    @CsvSource({
        "41, 10, 12",
        "31, 20, 12",
        "28, 22, 13",
        "1, 31, 31",
        "61, 1, 1",
        "32, 1, 30",
    })
    void theLargestOfEveryFieldComposesAndDecodesAtTheEdges(int timeBits, int workerBits, int sequenceBits) {
        SnowflakeLayout layout = new SnowflakeLayout(timeBits, workerBits, sequenceBits, Unit.SECONDS, 0);
        long maxTime = (1L << timeBits) - 1;
        int maxWorker = (int) ((1L << workerBits) - 1);
        long maxSequence = (1L << sequenceBits) - 1;
        assertThat(layout.maxTime()).isEqualTo(maxTime);
        assertThat(layout.maxWorkerId()).isEqualTo(maxWorker);
        assertThat(layout.maxSequence()).isEqualTo(maxSequence);

        assertThat(layout.compose(maxTime, maxWorker, maxSequence)).isEqualTo(Long.MAX_VALUE);
        for (long[] parts : new long[][] {{0, 0, 0}, {maxTime, 0, 0}, {0, maxWorker, 0}, {0, 0, maxSequence},
                {maxTime / 2, maxWorker / 2, maxSequence / 2}, {1, 1, 1}}) {
            long id = layout.compose(parts[0], (int) parts[1], parts[2]);
            SnowflakeId decoded = layout.decode(id);
            assertThat(id).isNotNegative();
            assertThat(decoded.timestampMillis()).isEqualTo(parts[0] * 1000);
            assertThat(decoded.workerId()).isEqualTo(parts[1]);
            assertThat(decoded.sequence()).isEqualTo(parts[2]);
        }
    }

    @Test
    void widthsMustAddUpTo63WithEveryFieldPresent() {
        assertThatThrownBy(() -> new SnowflakeLayout(41, 10, 13, Unit.MILLISECONDS, 0)).hasMessageContaining("63");
        assertThatThrownBy(() -> new SnowflakeLayout(0, 51, 12, Unit.MILLISECONDS, 0)).hasMessageContaining("1 bit");
        assertThatThrownBy(() -> new SnowflakeLayout(20, 32, 11, Unit.MILLISECONDS, 0)).hasMessageContaining("31");
    }

    @Test
    void secondsAreWholeUnitsSinceTheEpochAndAnIdCarriesTheStartOfItsSecond() {
        SnowflakeLayout layout = SnowflakeLayout.uidGenerator();
        long epoch = Instant.parse("2016-05-20T00:00:00Z").toEpochMilli();
        assertThat(layout.twepoch()).isEqualTo(epoch);
        assertThat(layout.describe()).isEqualTo("31/20/12 s");
        assertThat(layout.elapsed(epoch)).isZero();
        assertThat(layout.elapsed(epoch + 999)).isZero();
        assertThat(layout.elapsed(epoch + 1000)).isEqualTo(1);
        assertThat(layout.millisOf(5)).isEqualTo(epoch + 5000);
        long id = layout.compose(layout.elapsed(epoch + 7_450), 1_048_575, 4095);
        assertThat(layout.decode(id)).isEqualTo(new SnowflakeId(id, epoch + 7_000, 1_048_575, 4095));
        assertThatThrownBy(() -> layout.elapsed(epoch - 1)).isInstanceOf(TimestampOverflowException.class);
    }

    @Test
    void theEndOfALayoutIsTheEpochPlusTwoToTheTimeBitsUnits() {
        assertThat(SnowflakeLayout.uidGenerator().endsAt()).isEqualTo(Instant.parse("2084-06-07T03:14:08Z"));
        assertThat(SnowflakeLayout.leafDefault().endsAt()).isEqualTo(Instant.parse("2080-07-10T17:30:30.209Z"));
        // uid-generator's own default, 28 bits of seconds from 2016-05-20: ended on 2024-11-20.
        SnowflakeLayout expired = new SnowflakeLayout(28, 22, 13, Unit.SECONDS, SnowflakeLayout.UID_GENERATOR_EPOCH);
        assertThat(expired.endsAt()).isEqualTo(Instant.parse("2024-11-20T21:24:16Z"));
        assertThatThrownBy(() -> expired.elapsed(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()))
                .isInstanceOf(TimestampOverflowException.class).hasMessageContaining("28 time bits")
                .hasMessageContaining("2024-11-20T21:24:16Z");
        SnowflakeLayout longest = new SnowflakeLayout(61, 1, 1, Unit.SECONDS, 0);
        assertThat(longest.endsAt().toEpochMilli()).isEqualTo(Long.MAX_VALUE);
        assertThat(longest.lastRepresentableMillis()).isEqualTo(Long.MAX_VALUE - 1);
    }

    @Test
    void leafsLayoutIsTheOneItAlwaysWas() {
        SnowflakeLayout layout = SnowflakeLayout.leafDefault();
        assertThat(layout).isEqualTo(new SnowflakeLayout(41, 10, 12, Unit.MILLISECONDS, 1288834974657L));
        assertThat(layout.describe()).isEqualTo("41/10/12 ms");
        // An ID issued by Meituan Leaf at 2026-11-22T22:25:21.984Z by worker 0, sequence 9.
        long elapsed = layout.elapsed(1795386321984L);
        assertThat(layout.compose(elapsed, 0, 9)).isEqualTo((elapsed << 22) | 9);
    }
}
