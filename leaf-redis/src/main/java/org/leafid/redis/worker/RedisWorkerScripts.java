package org.leafid.redis.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The three Lua scripts of the pool (in this package's resources), each atomic in Redis: taking
 * an id, renewing a lease while it is still this instance's, and giving it up likewise, so that
 * an instance never renews or deletes another's lease.
 */
final class RedisWorkerScripts {

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final RedisScript<List<Object>> TAKE = (RedisScript) new DefaultRedisScript<>(source("take.lua"), List.class);
    static final RedisScript<Long> RENEW = new DefaultRedisScript<>(source("renew.lua"), Long.class);
    static final RedisScript<Long> RELEASE = new DefaultRedisScript<>(source("release.lua"), Long.class);

    private RedisWorkerScripts() {
    }

    private static String source(String name) {
        try (InputStream in = RedisWorkerScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + name + " is missing from the leaf-redis jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read Lua script " + name, e);
        }
    }
}
