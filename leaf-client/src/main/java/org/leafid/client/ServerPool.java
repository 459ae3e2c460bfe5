package org.leafid.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers, tried in turn. A connect failure, a timeout or a 5xx marks a server down for a
 * back-off ({@code Retry-After} when it sent one) and the next is asked; a 4xx is the request's
 * fault and is thrown at once as {@link LeafRequestException}.
 */
final class ServerPool {

    private static final Logger log = LoggerFactory.getLogger(ServerPool.class);
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"(?:urn:leaf:problem:)?([^\"]*)\"");
    private static final Pattern DETAIL = Pattern.compile("\"detail\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final List<URI> servers;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final long backOffMillis;
    /** Per server, until when (System.nanoTime) it is skipped. */
    private final AtomicLongArray downUntil;
    private final AtomicInteger next = new AtomicInteger();

    ServerPool(List<URI> servers, Duration connectTimeout, Duration requestTimeout, Duration backOff) {
        this.servers = List.copyOf(servers);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .build();
        this.requestTimeout = requestTimeout;
        this.backOffMillis = backOff.toMillis();
        this.downUntil = new AtomicLongArray(servers.size());
    }

    /**
     * GETs {@code path} from the first server that answers 200, starting with the next in turn;
     * servers marked down are skipped while any other is up.
     *
     * @return the body of the 200 answer
     * @throws LeafRequestException on a 4xx
     * @throws IOException the last failure when no server answered 200
     */
    byte[] get(String path) throws IOException, InterruptedException {
        int count = servers.size();
        int start = Math.floorMod(next.getAndIncrement(), count);
        long now = System.nanoTime();
        IOException last = null;
        // The servers that are up first, in turn; then those marked down, in case every one is.
        for (boolean askingDown : new boolean[] {false, true}) {
            for (int i = 0; i < count; i++) {
                int server = (start + i) % count;
                if ((downUntil.get(server) - now > 0) != askingDown) {
                    continue;
                }
                try {
                    return getFrom(server, path);
                } catch (IOException e) {
                    last = e;
                }
            }
        }
        throw last;
    }

    private byte[] getFrom(int server, String path) throws IOException, InterruptedException {
        URI uri = servers.get(server).resolve(path);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            markDown(server, backOffMillis, e.toString());
            throw e;
        }
        int status = response.statusCode();
        if (status == 200) {
            downUntil.set(server, 0);
            return response.body();
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (status >= 400 && status < 500) {
            throw new LeafRequestException(status, match(TYPE, body, "unknown"), match(DETAIL, body, body));
        }
        long retryAfter = response.headers().firstValue("Retry-After").map(ServerPool::seconds).orElse(-1L);
        markDown(server, retryAfter > 0 ? retryAfter * 1000 : backOffMillis, status + " " + match(TYPE, body, ""));
        throw new IOException(uri + " answered " + status + ": " + match(DETAIL, body, body));
    }

    private void markDown(int server, long millis, String why) {
        long until = System.nanoTime() + millis * 1_000_000;
        if (downUntil.getAndSet(server, until) - System.nanoTime() <= 0) {
            log.warn("Leaf server {} failed ({}); asking the others for {} ms", servers.get(server), why, millis);
        }
    }

    private static long seconds(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String match(Pattern pattern, String body, String otherwise) {
        Matcher m = pattern.matcher(body);
        return m.find() ? m.group(1) : otherwise;
    }

    List<URI> servers() {
        return servers;
    }
}
