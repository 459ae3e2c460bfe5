package org.leafid.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Fetches a batch over HTTP, asking the servers in turn: the preferred one, then, after a connect
 * failure, a timeout, a 5xx, 408/429, a redirect or a bad answer, the next one up. A redirect (any
 * 3xx) is not followed: a Leaf server sends none, so it comes from something in front of the
 * server, and following it would take IDs from wherever it points. A refusal (other 4xx, or
 * {@code app-limit-reached}/{@code tag-exhausted}) is thrown at once: every server would say the
 * same.
 *
 * <p>The request timeout bounds the whole answer, body included (a body dripped a byte at a time
 * is cut off when it runs out), and a 200 body may be no longer than the IDs asked for can take.
 * An answer is handed to the buffer only once it passed the buffer's {@link AnswerCheck}.
 */
final class HttpBatchSource implements BatchSource {

    /** The longest line of a 200 answer: 19 digits of 2^63-1 and the line end. */
    static final int MOST_BYTES_PER_ID = 20;
    /** The longest line of a format's answer: a pattern makes at most 128 characters, and the line end. */
    static final int MOST_BYTES_PER_STRING = 129;
    /** The header a format's answer names its pattern in. */
    static final String FORMAT_HEADER = "Leaf-Format";
    private static final String TEXT = "text/plain";
    /** A problem+json body is a few hundred bytes; this is plenty. */
    static final int MOST_PROBLEM_BYTES = 64 * 1024;

    /** What a batch request accepts when it may be answered as ranges; a server without them answers text. */
    static final String ACCEPT_RANGES = IdRangeAnswer.MEDIA_TYPE + ", text/plain;q=0.5";

    private final HttpClient http;
    /** Where each request's deadline waits; a thread that never blocks, so a deadline is never late. */
    private final ScheduledExecutorService deadlines;
    private final ServerPool pool;
    private final Duration requestTimeout;
    private final ClientMeters meters;
    /** Whether batches are asked for as ranges (segment, shard) or as one ID per line. */
    private final boolean askRanges;
    /** Whether the runs of an answer must each start above the one before (segment). */
    private final boolean orderedRanges;

    HttpBatchSource(HttpClient http, ScheduledExecutorService deadlines, ServerPool pool, Duration requestTimeout,
            ClientMeters meters) {
        this(http, deadlines, pool, requestTimeout, meters, false, false);
    }

    private HttpBatchSource(HttpClient http, ScheduledExecutorService deadlines, ServerPool pool,
            Duration requestTimeout, ClientMeters meters, boolean askRanges, boolean orderedRanges) {
        this.http = http;
        this.deadlines = deadlines;
        this.pool = pool;
        this.requestTimeout = requestTimeout;
        this.meters = meters;
        this.askRanges = askRanges;
        this.orderedRanges = orderedRanges;
    }

    /**
     * The same servers, asked for batches as ranges ({@value IdRangeAnswer#MEDIA_TYPE}): a segment
     * or shard batch is then a few numbers whatever its size. A server that does not know the type,
     * or an opaque shard app's, answers one ID per line, which is read as before.
     *
     * @param ordered whether the runs must each start above the one before (segment)
     */
    HttpBatchSource askingForRanges(boolean ordered) {
        return new HttpBatchSource(http, deadlines, pool, requestTimeout, meters, true, ordered);
    }

    @Override
    public String servers() {
        return pool.servers().stream().map(server -> server.url).collect(Collectors.joining(", "));
    }

    @Override
    public AnswerIds fetch(String path, int count, AnswerCheck check) throws ServersUnavailableException {
        return fetch(path, count, MOST_BYTES_PER_ID, askRanges ? ACCEPT_RANGES : TEXT, server -> {
            AnswerCheck.Judge judge = check.before(server);
            return response -> {
                AnswerIds ids;
                if (askRanges && IdRangeAnswer.isRanges(response.headers().firstValue("Content-Type").orElse(null))) {
                    IdRangeAnswer.Parsed parsed = IdRangeAnswer.parse(response.body(), count, orderedRanges);
                    meters.rangesReceived(modeOf(path), parsed.ranges());
                    ids = parsed.ids();
                } else {
                    ids = AnswerIds.of(IdLines.parse(response.body(), count));
                }
                judge.accept(ids);
                return ids;
            };
        });
    }

    /**
     * Exactly {@code count} strings of a format, in an answer that passed {@code check}; the failover
     * as for IDs.
     */
    String[] fetchText(String path, int count, FormatAnswerCheck check) throws ServersUnavailableException {
        return fetch(path, count, MOST_BYTES_PER_STRING, TEXT, server -> response -> check.accept(
                response.headers().firstValue(FORMAT_HEADER).orElse(null), response.body(), count));
    }

    /** How one kind of answer is read: the reading for a server is made before it is asked. */
    @FunctionalInterface
    private interface Reader<T> {

        Reading<T> before(String server);
    }

    @FunctionalInterface
    private interface Reading<T> {

        T read(HttpResponse<byte[]> ok) throws BadAnswerException;
    }

    /** {@code segment} of {@code /api/segment/get/…}: the mode a path asks of, for the meters. */
    private static String modeOf(String path) {
        int start = "/api/".length();
        int end = path.indexOf('/', start);
        return path.startsWith("/api/") && end > start ? path.substring(start, end) : "unknown";
    }

    private <T> T fetch(String path, int count, int mostBytesEach, String accept, Reader<T> reader)
            throws ServersUnavailableException {
        Exception last = null;
        for (int attempt = 0; attempt < pool.size(); attempt++) {
            ServerPool.Server server = pool.pick();
            if (server == null) {
                break;
            }
            Reading<T> reading = reader.before(server.url);
            try {
                HttpResponse<byte[]> response = exchange(server.url + path + "count=" + count,
                        (long) mostBytesEach * count, accept);
                int status = response.statusCode();
                if (status == 200) {
                    T answer = reading.read(response);
                    pool.succeeded(server);
                    return answer;
                }
                if (status >= 300 && status < 400) {
                    String location = response.headers().firstValue("Location").orElse("no Location");
                    String reason = status + " redirect to " + location + ", not followed";
                    pool.failed(server, -1, reason);
                    meters.serverFailed(server.url, "redirect");
                    last = new IOException(reason);
                    continue;
                }
                Problem problem = Problem.parse(response.body());
                if (isServerFault(status, problem)) {
                    pool.failed(server, retryAfterSeconds(response), status + " " + problem.type());
                    meters.serverFailed(server.url, "status");
                    last = new IOException(status + " " + problem.type() + ": " + problem.detail());
                    continue;
                }
                throw LeafRequestException.of(status, problem.type(), problem.detail(), null);
            } catch (BadAnswerException e) {
                pool.failed(server, -1, "a bad answer, " + e.getMessage());
                meters.serverFailed(server.url, "bad-answer");
                meters.badAnswer(server.url, e.check());
                last = e;
            } catch (HttpTimeoutException e) {
                pool.failed(server, -1, "no answer within " + requestTimeout.toMillis() + " ms");
                meters.serverFailed(server.url, "timeout");
                last = e;
            } catch (IOException e) {
                pool.failed(server, -1, e.toString());
                meters.serverFailed(server.url, "connection");
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServersUnavailableException("interrupted", System.nanoTime(), e);
            }
        }
        throw new ServersUnavailableException(last == null ? "every server is backing off after a failure"
                : "no server gave a batch, the last failure: " + last, pool.retryAtNanos(), last);
    }

    /**
     * One request and its whole answer within the request timeout, on the calling thread: the status
     * line is bounded by the request's own timeout, the body by a deadline on {@code deadlines}.
     * {@code send}, not {@code sendAsync}: the JDK completes every {@code sendAsync} on the common
     * pool's default executor, which on a machine of one or two CPUs (where that pool has one
     * thread or none) is a new thread per answer; that was most of a fetch's cost and latency.
     *
     * @throws HttpTimeoutException when no status line came in time
     * @throws BadAnswerException when the body was too long ({@code size}) or not complete in time ({@code deadline})
     */
    private HttpResponse<byte[]> exchange(String url, long mostBytes, String accept)
            throws IOException, BadAnswerException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout)
                .header("Accept", accept).GET().build();
        BoundedBody body = new BoundedBody(mostBytes, MOST_PROBLEM_BYTES);
        ScheduledFuture<?> deadline = deadlines.schedule(() -> body.expire(requestTimeout),
                requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        try {
            return http.send(request, info -> body.forStatus(info.statusCode()));
        } catch (IOException e) {
            // The body's own refusal comes wrapped (IOException, CompletionException): it names the check.
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof BadAnswerException bad) {
                    throw bad;
                }
            }
            throw e;
        } finally {
            deadline.cancel(false);
        }
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
