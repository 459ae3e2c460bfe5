package org.leafid.redis;

import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Whether the buffer uses Redis or its memory fallback. After a failure, Redis is tried again at
 * most once per retry interval, by one caller, so that an outage costs each request nothing and
 * the log one WARN when it starts and one INFO when it ends.
 */
final class RedisAvailability {

    private static final Logger LOG = LoggerFactory.getLogger(RedisAvailability.class);
    static final long DO_NOT_TRY = -1;

    private final InstantSource clock;
    private final long retryMillis;
    private final AtomicBoolean down = new AtomicBoolean();
    /** Counts the outages; a success ends an outage only if it was tried during that outage. */
    private final AtomicLong outages = new AtomicLong();
    private final AtomicLong nextTryMillis = new AtomicLong();
    private volatile long downSinceMillis;

    RedisAvailability(InstantSource clock, long retryMillis) {
        this.clock = clock;
        this.retryMillis = retryMillis;
    }

    /** A ticket for a call to Redis, or {@link #DO_NOT_TRY} while Redis is down and no retry is due. */
    long begin() {
        long outage = outages.get();
        if (!down.get()) {
            return outage;
        }
        long due = nextTryMillis.get();
        long now = clock.millis();
        // One caller per interval retries; the others keep serving from memory without waiting on Redis.
        return now >= due && nextTryMillis.compareAndSet(due, now + retryMillis) ? outage : DO_NOT_TRY;
    }

    /** Redis failed the call: serve from memory. True when this failure started an outage. */
    boolean failed(DataAccessException failure) {
        long now = clock.millis();
        nextTryMillis.set(now + retryMillis);
        if (down.compareAndSet(false, true)) {
            downSinceMillis = now;
            outages.incrementAndGet();
            LOG.warn("Redis failed ({}: {}): shard IDs are served from blocks reserved in the database (nothing is "
                    + "issued twice); Redis is tried again every {} ms", failure.getMessage(),
                    failure.getMostSpecificCause().toString(), retryMillis);
            return true;
        }
        return false;
    }

    /** Redis answered a call begun with {@code ticket}. True when this ends an outage. */
    boolean answered(long ticket) {
        // A call begun before the outage started may still succeed late; only a retry proves Redis is back.
        if (down.get() && ticket == outages.get() && down.compareAndSet(true, false)) {
            LOG.info("Redis answers again after {} ms: shard IDs are served from the Redis lists again",
                    clock.millis() - downSinceMillis);
            return true;
        }
        return false;
    }

    /** True while IDs come from the memory fallback (the "buffer source" of the status page). */
    boolean isDown() {
        return down.get();
    }
}
