package org.leafid.autoconfigure.snowflake.redis;

import org.leafid.core.snowflake.SnowflakeGenerator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Releases the {@code redis} worker-id lease while Redis can still be reached. Spring stops
 * lifecycles before it destroys beans, and the {@code LettuceConnectionFactory} is a lifecycle
 * (phase 0): left to bean destruction, the generator's release met a stopped factory and the
 * lease stayed until it ran out, keeping the id from everyone (a restart included) for a lease.
 * Phases stop from the highest down, so this one runs after the web server's graceful shutdown
 * (no request is left to serve) and before the factory's.
 */
final class RedisLeaseRelease implements SmartLifecycle {

    /** Below the web server's shutdown phases and the refreshers', far above the connection factory's 0. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 8192;

    private final ObjectProvider<SnowflakeGenerator> generator;
    private volatile boolean running;

    RedisLeaseRelease(ObjectProvider<SnowflakeGenerator> generator) {
        this.generator = generator;
    }

    @Override
    public void start() {
        running = true;
    }

    /** Closing the generator releases the id with how far IDs went; its later close at destruction does nothing. */
    @Override
    public void stop() {
        running = false;
        generator.ifAvailable(SnowflakeGenerator::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
