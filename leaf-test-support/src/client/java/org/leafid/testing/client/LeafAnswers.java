package org.leafid.testing.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;
import org.leafid.client.ShardIds;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.ResetPeriod;
import org.leafid.core.segment.IdRanges;
import org.leafid.testing.client.SocketHttpServer.Request;
import org.leafid.testing.client.SocketHttpServer.Responder;

/**
 * Answers for a {@link SocketHttpServer}: a well-behaved Leaf server's ({@link #good()}), and the
 * ways a broken server or proxy answers 200: IDs that cannot be right, a body dripped slowly, an
 * endless body.
 */
public final class LeafAnswers {

    private LeafAnswers() {}

    /** A shard-mode ID: {@code index << 14 | shardId << 8 | appId}. */
    public static long shardId(int appId, int shardId, long index) {
        return index << 14 | (long) shardId << 8 | appId;
    }

    /** The app of a shard-mode ID. */
    public static int appOf(long id) {
        return (int) (id & 0xFF);
    }

    /** The shard of a shard-mode ID. */
    public static int shardOfId(long id) {
        return (int) (id >>> 8) & 63;
    }

    /** The media type of a batch as ranges. */
    public static final String RANGES_TYPE = "application/vnd.leaf.ranges+json";

    /**
     * A 200 answer of these IDs as the server writes it: one per line, or as ranges (runs of
     * consecutive IDs) when the client asked for them.
     */
    public static Responder ids(Function<Request, long[]> ids) {
        return (request, out) -> {
            long[] answer = ids.apply(request);
            // A shard ID's index is above its shard and app bits: consecutive indexes step by 2^14.
            long stride = request.path().startsWith("/api/shard/") ? 1L << 14 : 1;
            // As the server: ranges only when the runs are four IDs long on average, else lines.
            if (request.wantsRanges() && IdRanges.of(answer, stride).ranges() * 4L <= answer.length) {
                write(out, 200, RANGES_TYPE, ranges(answer, stride));
            } else {
                write(out, 200, lines(answer));
            }
        };
    }

    /** A server that knows no ranges: the inner answers, read without the request's Accept header. */
    public static Responder plain(Responder answers) {
        return (request, out) -> answers.respond(request.withoutAccept(), out);
    }

    /** 200 as ranges, with this body whatever was asked: an answer of the ranges' type made by hand. */
    public static Responder rangesBody(Function<Request, String> body) {
        return (request, out) -> write(out, 200, RANGES_TYPE, body.apply(request).getBytes(StandardCharsets.US_ASCII));
    }

    /** The IDs as runs that step by {@code stride}, as the server writes a batch as ranges. */
    public static byte[] ranges(long[] ids, long stride) {
        IdRanges runs = IdRanges.of(ids, stride);
        StringBuilder body = new StringBuilder("{\"count\":").append(ids.length);
        if (stride != 1) {
            body.append(",\"stride\":\"").append(stride).append('"');
        }
        body.append(",\"ranges\":[");
        for (int i = 0; i < runs.ranges(); i++) {
            body.append(i == 0 ? "[\"" : ",[\"").append(runs.first(i)).append("\",\"").append(runs.last(i)).append("\"]");
        }
        return body.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** A 200 answer of as many IDs as asked for, the i-th (from 0) being {@code idAt(i)}. */
    public static Responder each(IntToLongFunction idAt) {
        return ids(request -> IntStream.range(0, request.count()).mapToLong(idAt::applyAsLong).toArray());
    }

    /**
     * A Leaf server that answers every mode right: segment IDs counted up per tag from 1,000,001,
     * snowflake IDs counted up from 2^40, shard IDs of the app asked for in the gate pass's shard
     * (or round-robin), with indexes counted up per app and shard.
     */
    public static Responder good() {
        ConcurrentHashMap<String, AtomicLong> counters = new ConcurrentHashMap<>();
        AtomicLong roundRobin = new AtomicLong();
        return ids(request -> {
            String[] parts = request.path().split("/");
            String mode = parts[2];
            long[] ids = new long[request.count()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = switch (mode) {
                    case "segment" -> counters.computeIfAbsent("segment/" + parts[4], k -> new AtomicLong(1_000_000))
                            .incrementAndGet();
                    case "snowflake" -> counters.computeIfAbsent("snowflake", k -> new AtomicLong(1L << 40))
                            .incrementAndGet();
                    default -> {
                        int app = Integer.parseInt(parts[4]);
                        String gatePass = request.query().get("gatePass");
                        int shard = gatePass == null ? (int) (roundRobin.getAndIncrement() % 64)
                                : ShardIds.shardOf(gatePass);
                        yield shardId(app, shard, counters.computeIfAbsent("shard/" + app + "/" + shard,
                                k -> new AtomicLong()).incrementAndGet());
                    }
                };
            }
            return ids;
        });
    }

    /** 200 and {@code count} lines of 0. */
    public static Responder zeros() {
        return each(i -> 0);
    }

    /** 200 and a body that is not lines of IDs (nor ranges, when they were asked for: then with their type). */
    public static Responder garbage() {
        return (request, out) -> write(out, 200, request.wantsRanges() ? RANGES_TYPE : "text/plain",
                "<html>Bad gateway</html>\n".getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * 200 with the length of {@code count} lines of "1", then one byte each {@code interval} until
     * the client hangs up: a connection that stalls half-way.
     */
    public static Responder drip(Duration interval) {
        return (request, out) -> {
            byte[] body = new byte[request.count() * 2];
            for (int i = 0; i < body.length; i += 2) {
                body[i] = '1';
                body[i + 1] = '\n';
            }
            String type = "text/plain";
            if (request.wantsRanges()) { // a well-formed answer of ranges, a byte at a time
                body = ("{\"count\":" + request.count() + ",\"ranges\":[[\"1\",\"" + request.count() + "\"]]}")
                        .getBytes(StandardCharsets.US_ASCII);
                type = RANGES_TYPE;
            }
            out.write(head(200, type, "Content-Length: " + body.length));
            for (byte b : body) {
                out.write(b);
                out.flush();
                Thread.sleep(interval.toMillis());
            }
        };
    }

    /** 200 and a chunked body of "1" lines that never ends, until the client hangs up. */
    public static Responder endless() {
        return (request, out) -> {
            byte[] chunk = new byte[8192];
            for (int i = 0; i < chunk.length; i += 2) {
                chunk[i] = '1';
                chunk[i + 1] = '\n';
            }
            if (request.wantsRanges()) { // ranges without end: ["1","1"], repeated
                out.write(head(200, RANGES_TYPE, "Transfer-Encoding: chunked"));
                out.write(chunked(("{\"count\":" + request.count() + ",\"ranges\":[").getBytes(StandardCharsets.US_ASCII)));
                byte[] run = "[\"1\",\"1\"],".getBytes(StandardCharsets.US_ASCII);
                chunk = new byte[run.length * 700];
                for (int i = 0; i < chunk.length; i += run.length) {
                    System.arraycopy(run, 0, chunk, i, run.length);
                }
            } else {
                out.write(head(200, "Transfer-Encoding: chunked"));
            }
            byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] end = "\r\n".getBytes(StandardCharsets.US_ASCII);
            while (true) {
                out.write(size);
                out.write(chunk);
                out.write(end);
            }
        };
    }

    /** A redirect ({@code status} 3xx) to {@code location}, with an empty body: a proxy sending the client away. */
    public static Responder redirect(int status, String location) {
        return (request, out) -> out.write(("HTTP/1.1 " + status + " X\r\nLocation: " + location
                + "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** A 503 {@code store-unavailable} problem, as a server whose store is down answers. */
    public static Responder unavailable() {
        return (request, out) -> {
            byte[] body = ("{\"type\":\"urn:leaf:problem:store-unavailable\",\"status\":503,"
                    + "\"detail\":\"down for the test\"}").getBytes(StandardCharsets.US_ASCII);
            out.write(("HTTP/1.1 503 X\r\nContent-Type: application/problem+json\r\nConnection: close\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        };
    }

    /** The first {@code answers} requests answered by {@code first}, every later one by {@code then}. */
    public static Responder switching(int answers, Responder first, Responder then) {
        AtomicLong asked = new AtomicLong();
        return (request, out) -> (asked.incrementAndGet() <= answers ? first : then).respond(request, out);
    }

    /**
     * A Leaf server's answers for the formats: strings of {@code pattern} numbered up from
     * {@code firstNumber} per format name, with the pattern in the {@code Leaf-Format} header.
     */
    public static Responder formatted(String pattern, long firstNumber) {
        ConcurrentHashMap<String, FormattedIdGenerator> formats = new ConcurrentHashMap<>();
        return formattedLines(pattern, request -> formats.computeIfAbsent(request.path().split("/")[4], name -> {
            AtomicLong counter = new AtomicLong(firstNumber - 1);
            return new FormattedIdGenerator(name, FormatPattern.parse(pattern), ResetPeriod.NEVER, ZoneOffset.UTC,
                    period -> counter::incrementAndGet, InstantSource.system(), Duration.ofMinutes(1));
        }).next(request.count()));
    }

    /** 200 with these strings, one per line, and {@code pattern} in the {@code Leaf-Format} header (none when null). */
    public static Responder formattedLines(String pattern, Function<Request, String[]> values) {
        return (request, out) -> {
            StringBuilder body = new StringBuilder();
            for (String value : values.apply(request)) {
                body.append(value).append('\n');
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.US_ASCII);
            out.write(head(200, (pattern == null ? "" : "Leaf-Format: " + pattern + "\r\n")
                    + "Content-Length: " + bytes.length));
            out.write(bytes);
        };
    }

    /** One decimal ID per line. */
    public static byte[] lines(long[] ids) {
        StringBuilder body = new StringBuilder(ids.length * 20);
        Arrays.stream(ids).forEach(id -> body.append(id).append('\n'));
        return body.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void write(OutputStream out, int status, byte[] body) throws IOException {
        write(out, status, "text/plain", body);
    }

    private static void write(OutputStream out, int status, String contentType, byte[] body) throws IOException {
        out.write(head(status, contentType, "Content-Length: " + body.length));
        out.write(body);
    }

    private static byte[] head(int status, String lengthHeader) {
        return head(status, "text/plain", lengthHeader);
    }

    private static byte[] head(int status, String contentType, String lengthHeader) {
        return ("HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\nConnection: close\r\n"
                + lengthHeader + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** One chunk of a chunked body. */
    private static byte[] chunked(byte[] data) {
        byte[] size = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] chunk = Arrays.copyOf(size, size.length + data.length + 2);
        System.arraycopy(data, 0, chunk, size.length, data.length);
        chunk[chunk.length - 2] = '\r';
        chunk[chunk.length - 1] = '\n';
        return chunk;
    }
}
