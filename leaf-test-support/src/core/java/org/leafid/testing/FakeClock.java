package org.leafid.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.core.Sleeper;

/**
 * A settable clock that is also the {@link Sleeper} of the code under test: a wait moves this
 * clock forward instead of sleeping, so tests run time-dependent code without real delays.
 * Thread-safe.
 */
public final class FakeClock implements InstantSource, Sleeper {

    private final AtomicLong millis;
    private final AtomicLong sleeps = new AtomicLong();
    private final AtomicLong sleptMillis = new AtomicLong();
    private final AtomicLong ticks = new AtomicLong();

    public FakeClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    public void set(long epochMillis) {
        millis.set(epochMillis);
    }

    /** Moves the clock forward by {@code deltaMillis} and returns the new time. */
    public long advance(long deltaMillis) {
        if (deltaMillis < 0) {
            throw new IllegalArgumentException("use stepBack to move the clock back: " + deltaMillis);
        }
        return millis.addAndGet(deltaMillis);
    }

    public long advance(Duration delta) {
        return advance(delta.toMillis());
    }

    /** Moves the clock back by {@code deltaMillis}, as an NTP step would, and returns the new time. */
    public long stepBack(long deltaMillis) {
        if (deltaMillis < 0) {
            throw new IllegalArgumentException("use advance to move the clock forward: " + deltaMillis);
        }
        return millis.addAndGet(-deltaMillis);
    }

    /** Advances the clock by {@code n} ms at once: the code under test waited that long. */
    @Override
    public void sleepMillis(long n) {
        // Same contract as Thread.sleep, so a caller passing a negative wait fails here too.
        if (n < 0) {
            throw new IllegalArgumentException("negative sleep: " + n);
        }
        sleeps.incrementAndGet();
        sleptMillis.addAndGet(n);
        millis.addAndGet(n);
    }

    /** Advances the clock by 1 ms, so a spent millisecond ends without real time passing. */
    @Override
    public void awaitTick() {
        ticks.incrementAndGet();
        millis.incrementAndGet();
    }

    /** How many times {@link #sleepMillis} was called. */
    public long sleepCount() {
        return sleeps.get();
    }

    /** The total of every {@link #sleepMillis} wait. */
    public long sleptMillis() {
        return sleptMillis.get();
    }

    /** How many times {@link #awaitTick} was called. */
    public long tickCount() {
        return ticks.get();
    }

    @Override
    public String toString() {
        return "FakeClock[" + instant() + "]";
    }
}
