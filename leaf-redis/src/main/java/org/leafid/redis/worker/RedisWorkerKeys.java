package org.leafid.redis.worker;

import org.leafid.core.worker.InstanceAddress;

/**
 * The keys of the pool under one prefix; the take script builds the same names from the prefix
 * (it scans ids, so it cannot be handed every key).
 *
 * <ul>
 *   <li>{@code {prefix}worker:{id}}: the lease, its holder process's {@code ip:port/token}
 *       ({@link org.leafid.core.worker.LeaseOwner}), with a PX expiry;</li>
 *   <li>{@code {prefix}reserved:{id}}: the reserved-until time of the id's holders, kept after the lease;</li>
 *   <li>{@code {prefix}instance:{ip:port}}: the id a process of the address took last
 *       while its sticky id was free (sticky: given back only while no lease of it exists);</li>
 *   <li>{@code {prefix}pool}: the run id of the Redis primary that holds the pool and since
 *       when, in Redis's own time.</li>
 * </ul>
 */
record RedisWorkerKeys(String prefix) {

    String lease(int workerId) {
        return prefix + "worker:" + workerId;
    }

    String reserved(int workerId) {
        return prefix + "reserved:" + workerId;
    }

    String instance(InstanceAddress instance) {
        return prefix + "instance:" + instance.key();
    }

    String pool() {
        return prefix + "pool";
    }
}
