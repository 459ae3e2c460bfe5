package org.leafid.core.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Base 10, 36 and 62 numbers and their check characters round-trip for random values and the edges
 * (0, 1, the width's largest, Long.MAX_VALUE), and every single mistyped character is caught.
 */
class RadixAndCheckPropertyTest {

    private static final int VALUES = 20_000;

    @ParameterizedTest
    @EnumSource(Radix.class)
    void everyValueRoundTripsThroughItsWidestForm(Radix radix) {
        int width = radix.maxWidth();
        FormatPattern pattern = FormatPattern.parse("X{" + radix.token() + ":" + width + "}{check}");
        Rendering rendering = new Rendering(pattern, ZonedDateTime.now(ZoneOffset.UTC));
        for (long value : values(new SplittableRandom(radix.ordinal()), Long.MAX_VALUE)) {
            String text = rendering.render(value);
            assertThat(text).hasSize(pattern.length());
            assertThat(pattern.decode(text, ResetPeriod.NEVER).sequence()).as(text).isEqualTo(value);
        }
    }

    @ParameterizedTest
    @EnumSource(Radix.class)
    void aNarrowWidthRoundTripsUpToItsLargestNumber(Radix radix) {
        FormatPattern pattern = FormatPattern.parse("N{" + radix.token() + ":4}{check}");
        Rendering rendering = new Rendering(pattern, ZonedDateTime.now(ZoneOffset.UTC));
        long max = pattern.maxNumber();
        assertThat(max).isEqualTo((long) Math.pow(radix.base(), 4) - 1);
        for (long value : values(new SplittableRandom(7 + radix.ordinal()), max)) {
            assertThat(pattern.decode(rendering.render(value), ResetPeriod.NEVER).sequence()).isEqualTo(value);
        }
    }

    @ParameterizedTest
    @EnumSource(Radix.class)
    void everySingleMistypedCharacterIsCaughtByTheCheck(Radix radix) {
        FormatPattern pattern = FormatPattern.parse("AB{yyyy}{MM}{dd}-{" + radix.token() + ":8}{check}");
        Rendering rendering = new Rendering(pattern, ZonedDateTime.of(2026, 11, 27, 9, 0, 0, 0, ZoneOffset.UTC));
        CheckScheme scheme = pattern.check().scheme();
        SplittableRandom random = new SplittableRandom(42 + radix.ordinal());
        for (long value : values(random, pattern.maxNumber())) {
            String text = rendering.render(value);
            int checkAt = pattern.check().at();
            assertThat(scheme.valid(text, checkAt, text.charAt(checkAt))).as(text).isTrue();
            int at = pattern.number().at() + random.nextInt(pattern.number().width());
            char original = text.charAt(at);
            char typo = (char) ('0' + random.nextInt(10));
            if (Character.toUpperCase(typo) == Character.toUpperCase(original)) {
                continue;
            }
            String mistyped = text.substring(0, at) + typo + text.substring(at + 1);
            assertThat(scheme.valid(mistyped, checkAt, mistyped.charAt(checkAt))).as(mistyped).isFalse();
        }
    }

    private static long[] values(SplittableRandom random, long max) {
        LongStream edges = LongStream.of(0, 1, 2, max - 1, max);
        LongStream randoms = random.longs(VALUES, 0, max == Long.MAX_VALUE ? Long.MAX_VALUE : max + 1);
        return LongStream.concat(edges, randoms).toArray();
    }
}
