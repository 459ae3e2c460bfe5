package org.leafid.client;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A snowflake answer: IDs above 0, strictly increasing, and above the last ID the same server gave
 * this client in an answer accepted before the request was sent (a server issues its snowflake IDs
 * in order; an answer that is not above its last one repeats or goes back). Servers are told apart
 * by URL, so each URL should reach one server, not a load balancer in front of several.
 */
final class SnowflakeAnswerCheck implements AnswerCheck {

    private final ConcurrentHashMap<String, Long> lastByServer = new ConcurrentHashMap<>();

    @Override
    public Judge before(String server) {
        long floor = lastByServer.getOrDefault(server, 0L);
        return ids -> {
            IdRules.positive(ids);
            IdRules.increasing(ids);
            IdRules.above(ids, floor, "the last snowflake ID this server gave");
            if (ids.length > 0) {
                lastByServer.merge(server, ids[ids.length - 1], Math::max);
            }
        };
    }
}
