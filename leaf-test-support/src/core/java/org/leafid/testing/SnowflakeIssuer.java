package org.leafid.testing;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.core.LeafException;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdHolder;

/**
 * A process issuing snowflake IDs on a thread of its own, at a client's pace (a millisecond's rest
 * every 50 IDs, so a fault test's IDs fit in memory), until closed; every ID is kept, and a refusal
 * (a 503 to a client) is skipped. For fault tests that hold two holders' IDs side by side.
 */
public final class SnowflakeIssuer implements AutoCloseable {

    private final List<Long> issued = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong lastIssuedNanos = new AtomicLong();
    private final Thread thread;

    public SnowflakeIssuer(SnowflakeLayout layout, WorkerIdHolder holder) {
        SnowflakeGenerator generator = new SnowflakeGenerator(layout, holder, InstantSource.system(),
                Sleeper.system(), new Random(), Duration.ofMillis(5));
        thread = new Thread(() -> issue(generator), "issuer");
        thread.start();
    }

    private void issue(SnowflakeGenerator generator) {
        int count = 0;
        while (running.get()) {
            try {
                long id = generator.nextId();
                synchronized (issued) {
                    issued.add(id);
                }
                lastIssuedNanos.set(System.nanoTime());
                if (++count % 50 == 0) {
                    Thread.sleep(1);
                }
            } catch (LeafException refused) {
                Thread.onSpinWait(); // no lease now: the server would answer 503
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every ID issued so far, in order. */
    public List<Long> issued() {
        synchronized (issued) {
            return new ArrayList<>(issued);
        }
    }

    /** How long after {@code nanos} ({@link System#nanoTime}) the last ID was issued, in milliseconds. */
    public long lastIssuedMillisAfter(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(lastIssuedNanos.get() - nanos);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(5_000);
    }
}
