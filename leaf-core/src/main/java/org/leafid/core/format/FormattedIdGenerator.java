package org.leafid.core.format;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.leafid.core.IdGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issues the strings of one format: the number of the period the clock is in, from that period's
 * sequence, written by the pattern. Each period's numbers come from its own sequence (a segment
 * tag per period), so a server whose clock is a few seconds off around midnight issues from the
 * period its clock says and repeats nothing: a string's date part and its number always come from
 * the same period. A period's sequence is prepared {@code prepareAhead} before it begins. A number
 * beyond the pattern's width is never served ({@link FormatExhaustedException}). Thread-safe.
 *
 * <p>With a {@link BoundaryTimer}, the clock is read when a stretch of time ends (an hour, a day,
 * whatever the finest date part is), not for every string; a string issued in the milliseconds
 * before the timer fires still carries the period that is ending, and its number is that period's.
 */
public final class FormattedIdGenerator {

    private static final Logger log = LoggerFactory.getLogger(FormattedIdGenerator.class);

    private final String name;
    private final FormatPattern pattern;
    private final ResetPeriod reset;
    private final ZoneId zone;
    private final PeriodSequences sequences;
    private final InstantSource clock;
    private final long prepareAheadMillis;
    private final long maxNumber;
    /** The finest unit the strings change with: how long a {@link Window} lasts; null when never. */
    private final ChronoUnit windowUnit;
    private final AtomicReference<String> exhaustedLogged = new AtomicReference<>();
    /** Counts the strings when the sequences do not (snowflake); null when they do, sparing the hot path. */
    private final LongAdder issued;
    /** Ends each window at its end; null: the clock is read for every string. */
    private final BoundaryTimer timer;
    private volatile Window window;

    /** A format that reads the clock for every string. */
    public FormattedIdGenerator(String name, FormatPattern pattern, ResetPeriod reset, ZoneId zone,
            PeriodSequences sequences, InstantSource clock, Duration prepareAhead) {
        this(name, pattern, reset, zone, sequences, clock, prepareAhead, null);
    }

    /** @param timer ends each stretch of time at its end, so that no string reads the clock; null: each does */
    public FormattedIdGenerator(String name, FormatPattern pattern, ResetPeriod reset, ZoneId zone,
            PeriodSequences sequences, InstantSource clock, Duration prepareAhead, BoundaryTimer timer) {
        if (!pattern.dateFields().containsAll(reset.needs())) {
            throw new IllegalArgumentException("format '" + name + "' resets " + reset.name().toLowerCase()
                    + " but its pattern lacks " + reset.needs().stream().map(f -> "{" + f.token() + "}").toList());
        }
        this.name = name;
        this.pattern = pattern;
        this.reset = reset;
        this.zone = zone;
        this.sequences = sequences;
        this.clock = clock;
        this.prepareAheadMillis = prepareAhead.toMillis();
        this.maxNumber = pattern.maxNumber();
        this.issued = sequences.issuedCount() < 0 ? new LongAdder() : null;
        this.windowUnit = pattern.dateFields().stream().map(DateField::unit).min(ChronoUnit::compareTo)
                .orElse(reset.unit());
        this.timer = timer;
        Window none = new Window(Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, "", null, "");
        none.ended = true;
        this.window = none;
    }

    public String name() {
        return name;
    }

    public FormatPattern pattern() {
        return pattern;
    }

    public ResetPeriod reset() {
        return reset;
    }

    /**
     * The next string.
     *
     * @throws FormatExhaustedException when the period's numbers are past the width
     * @throws org.leafid.core.LeafException when the sequence cannot issue
     */
    public String next() {
        Window current = currentWindow();
        long number = current.sequence().nextId();
        if (number > maxNumber) {
            throw exhausted(current.period);
        }
        if (issued != null) {
            issued.increment();
        }
        return current.rendering.render(number);
    }

    /** The window the clock is in, entered when it is a new one. */
    private Window currentWindow() {
        Window current = window;
        if (timer != null) {
            if (current.ended) {
                current = enter(clock.millis(), current);
            }
        } else {
            long now = clock.millis();
            if (now < current.from || now >= current.until) {
                current = enter(now, current);
            } else if (now >= current.prepareAt) {
                current.prepareNext();
            }
        }
        return current;
    }

    /**
     * The next {@code count} strings, in the order issued.
     *
     * @throws FormatRoomException when the period cannot hold {@code count} more numbers: nothing is
     *     issued (a batch taken up to the width would leave the rest of the period spent for nothing)
     */
    public String[] next(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        if (count > 1) {
            requireRoom(currentWindow(), count);
        }
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = next();
        }
        return values;
    }

    private void requireRoom(Window current, int count) {
        OptionalLong next = sequences.nextNumber(current.period);
        long room = next.isPresent() ? Math.max(0, maxNumber - next.getAsLong() + 1) : maxNumber;
        if (count > room) {
            throw new FormatRoomException(name, current.period, count, room);
        }
    }

    /** Reads a string of this format back (the period it names, its number, its date parts). */
    public FormatPattern.Decoded decode(String value) {
        return pattern.decode(value, reset);
    }

    /** The period the last string was issued in ("" before the first, or without a reset). */
    public String currentPeriod() {
        return window.period;
    }

    /** How many strings this generator has issued since start. */
    public long issuedCount() {
        return issued == null ? sequences.issuedCount() : issued.sum();
    }

    public ZoneId zone() {
        return zone;
    }

    /**
     * The window {@code now} is in, made current: the one prepared before the boundary when it is
     * that one, so the first string of a period costs what any other does.
     */
    private Window enter(long now, Window previous) {
        Window prepared = previous.following;
        Window entered = prepared != null && now >= prepared.from && now < prepared.until
                ? prepared : window(Instant.ofEpochMilli(now).atZone(zone));
        window = entered;
        if (timer != null && entered.until != Long.MAX_VALUE) {
            // Racing threads may enter equal windows and schedule twice: each ends only its own.
            if (entered.prepareAt < entered.until) {
                timer.at(entered.prepareAt, entered::prepareNext);
            }
            timer.at(entered.until, () -> entered.ended = true);
        }
        return entered;
    }

    /** The window {@code time} is in; its sequence is looked up at its first string. */
    private Window window(ZonedDateTime time) {
        String period = reset.key(time);
        Rendering rendering = new Rendering(pattern, time);
        if (windowUnit == null) {
            return new Window(Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, period, rendering, period);
        }
        ZonedDateTime start = startOf(time, windowUnit);
        ZonedDateTime end = start.plus(1, windowUnit);
        long until = end.toInstant().toEpochMilli();
        String nextPeriod = reset.key(end);
        long prepareAt = until - prepareAheadMillis;
        return new Window(start.toInstant().toEpochMilli(), until, prepareAt, period, rendering, nextPeriod);
    }

    private static ZonedDateTime startOf(ZonedDateTime time, ChronoUnit unit) {
        return switch (unit) {
            case YEARS -> time.withDayOfYear(1).truncatedTo(ChronoUnit.DAYS);
            case MONTHS -> time.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
            default -> time.truncatedTo(unit);
        };
    }

    private FormatExhaustedException exhausted(String period) {
        FormatExhaustedException exhausted = new FormatExhaustedException(name, period, maxNumber);
        String logged = exhaustedLogged.get();
        if (!period.equals(logged) && exhaustedLogged.compareAndSet(logged, period)) {
            log.error("{}; requests for it are answered 503 until then", exhausted.getMessage());
        }
        return exhausted;
    }

    /**
     * A stretch of time with one rendering and one period. Shortly before it ends, the following
     * window is built and, when it starts a period, the period's sequence is prepared: once.
     */
    private final class Window {

        final long from;
        final long until;
        final long prepareAt;
        final String period;
        final Rendering rendering;
        final String nextPeriod;
        final AtomicBoolean prepared = new AtomicBoolean();
        /** The window after this one, built by {@link #prepareNext}; null before. */
        volatile Window following;
        /** Set by the timer at the window's end: the next string reads the clock. */
        volatile boolean ended;
        private volatile IdGenerator sequence;

        Window(long from, long until, long prepareAt, String period, Rendering rendering, String nextPeriod) {
            this.from = from;
            this.until = until;
            this.prepareAt = prepareAt;
            this.period = period;
            this.rendering = rendering;
            this.nextPeriod = nextPeriod;
        }

        /** The period's numbers, looked up at the first string (racing threads get the same one). */
        IdGenerator sequence() {
            IdGenerator known = sequence;
            if (known == null) {
                known = sequences.sequence(period);
                sequence = known;
            }
            return known;
        }

        void prepareNext() {
            if (!prepared.get() && prepared.compareAndSet(false, true)) {
                if (!nextPeriod.equals(period)) {
                    sequences.prepare(nextPeriod);
                }
                following = window(Instant.ofEpochMilli(until).atZone(zone));
            }
        }
    }
}
