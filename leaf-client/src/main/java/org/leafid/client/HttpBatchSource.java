package org.leafid.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;

/**
 * Fetches a batch over HTTP, asking the servers in turn: the preferred one, then, after a connect
 * failure, a timeout, a 5xx, 408/429 or a malformed answer, the next one up. A refusal (other 4xx,
 * or {@code app-limit-reached}/{@code tag-exhausted}) is thrown at once: every server would say
 * the same.
 */
final class HttpBatchSource implements BatchSource {

    private final HttpClient http;
    private final ServerPool pool;
    private final Duration requestTimeout;
    private final ClientMeters meters;

    HttpBatchSource(HttpClient http, ServerPool pool, Duration requestTimeout, ClientMeters meters) {
        this.http = http;
        this.pool = pool;
        this.requestTimeout = requestTimeout;
        this.meters = meters;
    }

    @Override
    public long[] fetch(String path, int count) throws ServersUnavailableException {
        Exception last = null;
        for (int attempt = 0; attempt < pool.size(); attempt++) {
            ServerPool.Server server = pool.pick();
            if (server == null) {
                break;
            }
            HttpRequest request = HttpRequest.newBuilder(URI.create(server.url + path + "count=" + count))
                    .timeout(requestTimeout).header("Accept", "text/plain").GET().build();
            try {
                HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                int status = response.statusCode();
                if (status == 200) {
                    long[] ids = IdLines.parse(response.body(), count);
                    pool.succeeded(server);
                    return ids;
                }
                Problem problem = Problem.parse(response.body());
                if (isServerFault(status, problem)) {
                    pool.failed(server, retryAfterSeconds(response), status + " " + problem.type());
                    meters.serverFailed(server.url);
                    last = new IOException(status + " " + problem.type() + ": " + problem.detail());
                    continue;
                }
                throw LeafRequestException.of(status, problem.type(), problem.detail(), null);
            } catch (HttpTimeoutException e) {
                pool.failed(server, -1, "no answer within " + requestTimeout.toMillis() + " ms");
                meters.serverFailed(server.url);
                last = e;
            } catch (IOException | MalformedAnswerException e) {
                pool.failed(server, -1, e.toString());
                meters.serverFailed(server.url);
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServersUnavailableException("interrupted", System.nanoTime(), e);
            }
        }
        throw new ServersUnavailableException(last == null ? "every server is backing off after a failure"
                : "no server gave a batch, the last failure: " + last, pool.retryAtNanos(), last);
    }

    /** 5xx, 408 and 429 are the server's trouble, except the two limits, which are the key's. */
    private static boolean isServerFault(int status, Problem problem) {
        if (status == 408 || status == 429) {
            return true;
        }
        if (status < 500) {
            return false;
        }
        String type = Problem.shortType(problem.type());
        return !type.equals("app-limit-reached") && !type.equals("tag-exhausted");
    }

    /** Retry-After in seconds (the form the server sends), or -1 when absent or a date. */
    private static long retryAfterSeconds(HttpResponse<?> response) {
        Optional<String> value = response.headers().firstValue("Retry-After");
        if (value.isEmpty()) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(value.get().trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
