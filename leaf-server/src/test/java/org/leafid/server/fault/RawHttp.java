package org.leafid.server.fault;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 written byte for byte on a socket: hostile requests that {@code java.net.http}
 * would refuse to send or would clean up (raw {@code ../}, {@code %00}, any method, 20 KB
 * headers, broken bodies). One request per connection, bounded in time. Public for the HTTP tests'
 * own bad-encoding cases.
 */
public final class RawHttp {

    private static final int TIMEOUT_MILLIS = 10_000;
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");

    private RawHttp() {}

    /** An answer; status 0 when the server closed the connection without one. */
    public record Response(int status, Map<String, String> headers, String body, String failure) {

        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        boolean isJson() {
            return contentType().toLowerCase(Locale.ROOT).contains("json");
        }

        boolean isProblem() {
            return contentType().startsWith("application/problem+json");
        }

        /** The problem's {@code type}, or null. */
        public String problemType() {
            Matcher m = PROBLEM_TYPE.matcher(body);
            return m.find() ? m.group(1) : null;
        }
    }

    public static Response send(int port, String method, String target, List<String> headers, String body) {
        return sendFrom(null, port, method, target, headers, body);
    }

    /** As {@link #send}, from {@code source} (a loopback address of its own, e.g. 127.0.0.3), or any when null. */
    public static Response sendFrom(String source, int port, String method, String target, List<String> headers,
            String body) {
        StringBuilder head = new StringBuilder()
                .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\n")
                .append("Connection: close\r\n");
        headers.forEach(header -> head.append(header).append("\r\n"));
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            head.append("Content-Length: ").append(payload.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket()) {
            if (source != null) {
                socket.bind(new InetSocketAddress(source, 0));
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            String writeFailure = null;
            try {
                OutputStream out = socket.getOutputStream();
                out.write(head.toString().getBytes(StandardCharsets.UTF_8)); // UTF-8 on purpose: raw non-ASCII
                out.write(payload);
                out.flush();
            } catch (IOException e) {
                writeFailure = e.toString(); // the server may answer and close before reading it all
            }
            byte[] raw = readAll(socket.getInputStream());
            return parse(raw, writeFailure);
        } catch (IOException e) {
            return new Response(0, Map.of(), "", e.toString());
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                all.write(buffer, 0, read);
            }
        } catch (IOException e) {
            if (all.size() == 0) {
                throw e;
            }
        }
        return all.toByteArray();
    }

    private static Response parse(byte[] raw, String writeFailure) {
        String text = new String(raw, StandardCharsets.ISO_8859_1); // byte-preserving until the body is cut out
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/") || end < 0) {
            return new Response(0, Map.of(), "", "no HTTP answer" + (writeFailure == null ? "" : " (" + writeFailure + ")"));
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8), writeFailure);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = indexOfCrlf(chunked, at);
            if (lineEnd < 0) {
                break;
            }
            String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            body.write(chunked, lineEnd + 2, Math.min(size, chunked.length - lineEnd - 2));
            at = lineEnd + 2 + size + 2;
        }
        return body.toByteArray();
    }

    private static int indexOfCrlf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
