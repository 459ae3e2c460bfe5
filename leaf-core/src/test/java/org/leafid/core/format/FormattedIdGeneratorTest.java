package org.leafid.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.leafid.core.IdGenerator;
import org.leafid.testing.FakeClock;

class FormattedIdGeneratorTest {

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    private final FakeClock clock = new FakeClock(millis(2026, 11, 27, 23, 59, 58, SHANGHAI));
    private final PerPeriod sequences = new PerPeriod();

    @Test
    void theDailyOrderNumberStartsAtOneEachDayInItsZone() {
        FormattedIdGenerator order = generator("ORD{yyyy}{MM}{dd}{seq:6}{check}", ResetPeriod.DAILY, SHANGHAI);

        String first = order.next();
        String second = order.next();
        clock.advance(Duration.ofSeconds(3)); // 00:00:01 in Shanghai, 16:00:01 UTC
        String nextDay = order.next();

        assertThat(first).startsWith("ORD20261127000001").hasSize(18);
        assertThat(second).startsWith("ORD20261127000002");
        assertThat(nextDay).startsWith("ORD20261128000001");
        assertThat(order.decode(nextDay).period()).isEqualTo("20261128");
        assertThat(order.issuedCount()).isEqualTo(3);
    }

    @Test
    void theNextPeriodIsPreparedOnceShortlyBeforeItBegins() {
        FormattedIdGenerator order = generator("ORD{yyyy}{MM}{dd}{seq:6}", ResetPeriod.DAILY, SHANGHAI);

        order.next(); // 23:59:58, within the minute before midnight
        order.next();

        assertThat(sequences.prepared).containsExactly("20261128");
    }

    @Test
    void anHourPartChangesEveryHourWhileTheNumberGoesOnForTheDay() {
        clock.set(millis(2026, 11, 27, 9, 59, 59, ZoneOffset.UTC));
        FormattedIdGenerator ticket = generator("T{yyyy}{MM}{dd}{HH}-{seq:4}", ResetPeriod.DAILY, ZoneOffset.UTC);

        String before = ticket.next();
        clock.advance(1_000);
        String after = ticket.next();

        assertThat(before).isEqualTo("T2026112709-0001");
        assertThat(after).isEqualTo("T2026112710-0002");
        assertThat(sequences.prepared).as("no new period at 10:00").isEmpty();
    }

    @Test
    void aPeriodPastTheWidthIsRefusedNamingTheFormatAndPeriodAndTheNextStartsAgain() {
        FormattedIdGenerator small = generator("S{yyyy}{MM}{dd}{seq:1}", ResetPeriod.DAILY, SHANGHAI);
        for (int i = 1; i <= 9; i++) {
            assertThat(small.next()).endsWith(Integer.toString(i));
        }

        assertThatThrownBy(small::next).isInstanceOf(FormatExhaustedException.class)
                .hasMessageContaining("format 'fmt'").hasMessageContaining("period 20261127")
                .hasMessageContaining("never wraps");
        clock.advance(Duration.ofSeconds(3));
        assertThat(small.next()).isEqualTo("S202611281");
    }

    @Test
    void aFormatWithoutResetDrawsFromOneSequenceForever() {
        FormattedIdGenerator invoice = generator("INV{yyyy}{MM}-{seq36:6}{check}", ResetPeriod.NEVER, SHANGHAI);

        invoice.next();
        clock.advance(Duration.ofDays(40));
        String weeksLater = invoice.next();

        assertThat(weeksLater).startsWith("INV202701-000002");
        assertThat(sequences.byPeriod).containsOnlyKeys("");
    }

    @Test
    void withATimerNoStringReadsTheClockAndTheDayChangesWhenTheTimerFires() {
        AtomicLong clockReads = new AtomicLong();
        InstantSource counted = () -> {
            clockReads.incrementAndGet();
            return clock.instant();
        };
        ManualTimer timer = new ManualTimer();
        FormattedIdGenerator order = new FormattedIdGenerator("fmt", FormatPattern.parse("ORD{yyyy}{MM}{dd}{seq:6}"),
                ResetPeriod.DAILY, SHANGHAI, sequences, counted, Duration.ofMinutes(1), timer);

        for (int i = 0; i < 100; i++) {
            order.next();
        }
        assertThat(clockReads.get()).as("clock reads for 100 strings").isEqualTo(1);
        timer.runDue(clock.millis()); // the minute before midnight began before the first string
        assertThat(sequences.prepared).containsExactly("20261128");

        clock.advance(Duration.ofSeconds(3)); // past midnight, the timer not fired yet
        assertThat(order.next()).as("until the timer fires").isEqualTo("ORD20261127000101");
        timer.runDue(clock.millis());
        assertThat(order.next()).isEqualTo("ORD20261128000001");
        assertThat(clockReads.get()).isEqualTo(2);
    }

    @Test
    void aTimerThatFiresEarlyChangesNothing() {
        ManualTimer timer = new ManualTimer();
        FormattedIdGenerator order = new FormattedIdGenerator("fmt", FormatPattern.parse("ORD{yyyy}{MM}{dd}{seq:6}"),
                ResetPeriod.DAILY, SHANGHAI, sequences, clock, Duration.ofMinutes(1), timer);
        order.next();

        timer.runDue(Long.MAX_VALUE); // fires the end of the day while the clock still says 23:59:58

        assertThat(order.next()).isEqualTo("ORD20261127000002");
        clock.advance(Duration.ofSeconds(3));
        timer.runDue(clock.millis());
        assertThat(order.next()).isEqualTo("ORD20261128000001");
    }

    @Test
    void aResetWithoutTheDatePartsOfItsPeriodIsRefused() {
        assertThatThrownBy(() -> generator("ORD{yy}{MM}{dd}{seq:6}", ResetPeriod.DAILY, SHANGHAI))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{yyyy}");
    }

    private FormattedIdGenerator generator(String pattern, ResetPeriod reset, ZoneId zone) {
        return new FormattedIdGenerator("fmt", FormatPattern.parse(pattern), reset, zone, sequences, clock,
                Duration.ofMinutes(1));
    }

    private static long millis(int year, int month, int day, int hour, int minute, int second, ZoneId zone) {
        return ZonedDateTime.of(year, month, day, hour, minute, second, 0, zone).toInstant().toEpochMilli();
    }

    /** Runs what was scheduled when told the time. */
    private static final class ManualTimer implements BoundaryTimer {

        private final List<Map.Entry<Long, Runnable>> tasks = new ArrayList<>();

        @Override
        public synchronized void at(long epochMillis, Runnable task) {
            tasks.add(Map.entry(epochMillis, task));
        }

        void runDue(long now) {
            List<Runnable> due = new ArrayList<>();
            synchronized (this) {
                tasks.removeIf(task -> task.getKey() <= now && due.add(task.getValue()));
            }
            due.forEach(Runnable::run);
        }
    }

    /** One counter per period, from 1, as a fresh {@code <tag>@<period>} row gives. */
    private static final class PerPeriod implements PeriodSequences {

        final Map<String, AtomicLong> byPeriod = new HashMap<>();
        final List<String> prepared = new ArrayList<>();

        @Override
        public synchronized IdGenerator sequence(String period) {
            AtomicLong counter = byPeriod.computeIfAbsent(period, p -> new AtomicLong());
            return counter::incrementAndGet;
        }

        @Override
        public synchronized void prepare(String period) {
            prepared.add(period);
        }
    }
}
