package org.leafid.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers, in the order given, and which of them are down. One is preferred and asked until it
 * fails (sticking to one keeps a tag's batches from one server's blocks); a failure marks it down
 * for a back-off and moves the preference to the next one that is up. The back-off is the server's
 * {@code Retry-After} when it sent one, else 250 ms doubling per failure in a row up to 5 s.
 */
final class ServerPool {

    private static final Logger log = LoggerFactory.getLogger(ServerPool.class);
    static final long FIRST_BACKOFF_NANOS = Duration.ofMillis(250).toNanos();
    static final long LONGEST_BACKOFF_NANOS = Duration.ofSeconds(5).toNanos();
    /** A Retry-After longer than this is taken as this: a server must not be left alone for an hour. */
    static final long LONGEST_RETRY_AFTER_NANOS = Duration.ofSeconds(60).toNanos();

    private final List<Server> servers;
    private final LongSupplier nanos;
    private volatile int preferred;

    ServerPool(List<String> urls, LongSupplier nanos) {
        List<Server> list = new ArrayList<>();
        for (String url : urls) {
            list.add(new Server(url, nanos.getAsLong()));
        }
        this.servers = List.copyOf(list);
        this.nanos = nanos;
    }

    int size() {
        return servers.size();
    }

    List<Server> servers() {
        return servers;
    }

    /** The preferred server if it is up, else the next one up in order; null when every one is down. */
    Server pick() {
        long now = nanos.getAsLong();
        int start = preferred;
        for (int i = 0; i < servers.size(); i++) {
            int index = (start + i) % servers.size();
            if (servers.get(index).isUpAt(now)) {
                preferred = index;
                return servers.get(index);
            }
        }
        return null;
    }

    /** When the first server down may be asked again; now if one is up. */
    long retryAtNanos() {
        long now = nanos.getAsLong();
        long earliest = Long.MAX_VALUE;
        for (Server server : servers) {
            long upAt = server.downUntil;
            if (upAt - now <= 0) {
                return now;
            }
            earliest = Math.min(earliest, upAt);
        }
        return earliest;
    }

    void succeeded(Server server) {
        synchronized (server) {
            if (server.failures > 0) {
                log.info("Leaf server {} answers again after {} failed request(s)", server.url, server.failures);
                server.failures = 0;
                server.lastFailure = null;
            }
        }
    }

    /**
     * Marks a server down after a failure.
     *
     * @param retryAfterSeconds the server's Retry-After, or a negative number when it sent none
     */
    void failed(Server server, long retryAfterSeconds, String reason) {
        long now = nanos.getAsLong();
        long backoff;
        synchronized (server) {
            server.failures++;
            backoff = retryAfterSeconds >= 0
                    ? Math.min(Duration.ofSeconds(retryAfterSeconds).toNanos(), LONGEST_RETRY_AFTER_NANOS)
                    : Math.min(FIRST_BACKOFF_NANOS << Math.min(server.failures - 1, 20), LONGEST_BACKOFF_NANOS);
            server.downUntil = now + backoff;
            server.lastFailure = reason;
        }
        int index = servers.indexOf(server);
        if (preferred == index) {
            preferred = (index + 1) % servers.size();
        }
        log.warn("Leaf server {} failed ({}); not asked for {} ms{}", server.url, reason, backoff / 1_000_000,
                servers.size() > 1 ? ", the next server is asked" : "; it is the only server configured");
    }

    /** One server as the pool sees it. */
    static final class Server {
        final String url;
        /** Up from this time on ({@link System#nanoTime()} scale: compared by difference, never by value). */
        volatile long downUntil;
        /** Failures in a row; guarded by this. */
        int failures;
        volatile String lastFailure;

        Server(String url, long now) {
            this.url = url;
            this.downUntil = now;
        }

        boolean isUpAt(long now) {
            return downUntil - now <= 0;
        }
    }
}
