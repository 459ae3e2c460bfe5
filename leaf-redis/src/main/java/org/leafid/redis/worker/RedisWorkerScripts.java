package org.leafid.redis.worker;

import java.util.List;
import org.leafid.redis.LuaScripts;
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
        return LuaScripts.source(RedisWorkerScripts.class, name);
    }
}
