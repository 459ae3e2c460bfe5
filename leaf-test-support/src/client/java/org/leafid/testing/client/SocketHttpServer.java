package org.leafid.testing.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 server on a real socket of 127.0.0.1 (a free port) that answers each request with
 * whatever its {@link Responder} writes, byte for byte: a Leaf server's answers, or the ones a
 * misbehaving server or proxy gives (garbage, a body dripped a byte a second, an endless body).
 * One request per connection ({@code Connection: close}); a thread per connection.
 */
public final class SocketHttpServer implements AutoCloseable {

    /** What a request asked: the path, its query parameters (decoded), and its Accept header ("" when none). */
    public record Request(String path, Map<String, String> query, String accept) {

        /** The {@code count} parameter, 1 when absent. */
        public int count() {
            return Integer.parseInt(query.getOrDefault("count", "1"));
        }

        /** Whether the client asked for a batch as ranges ({@code application/vnd.leaf.ranges+json}). */
        public boolean wantsRanges() {
            return accept.contains("application/vnd.leaf.ranges+json");
        }

        /** The same request without its Accept header: what a server that knows no ranges reads. */
        public Request withoutAccept() {
            return new Request(path, query, "");
        }
    }

    /** Writes the whole answer, status line included, to the connection. */
    @FunctionalInterface
    public interface Responder {
        void respond(Request request, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket socket;
    private final Responder responder;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile boolean closed;

    private SocketHttpServer(Responder responder) throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.responder = responder;
        this.acceptor = new Thread(this::acceptAll, "socket-http-" + socket.getLocalPort());
        acceptor.setDaemon(true);
    }

    public static SocketHttpServer start(Responder responder) throws IOException {
        SocketHttpServer server = new SocketHttpServer(responder);
        server.acceptor.start();
        return server;
    }

    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** Requests answered or being answered so far. */
    public int requests() {
        return requests.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
        for (Socket connection : open) {
            connection.close(); // ends a drip or an endless body being written
        }
    }

    private void acceptAll() {
        while (!closed) {
            try {
                Socket connection = socket.accept();
                open.add(connection);
                Thread handler = new Thread(() -> serve(connection), "socket-http-request");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("accept failed on " + url(), e);
                }
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            Request request = readHead(connection.getInputStream());
            requests.incrementAndGet();
            OutputStream out = connection.getOutputStream();
            responder.respond(request, out);
            out.flush();
        } catch (IOException e) {
            // the client hung up (it cut off a body, or timed out): the answer ends here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(connection);
        }
    }

    private static Request readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        String[] lines = head.toString().split("\r\n");
        String accept = "";
        for (String line : lines) {
            if (line.regionMatches(true, 0, "Accept:", 0, "Accept:".length())) {
                accept = line.substring("Accept:".length()).trim();
            }
        }
        String[] requestLine = lines[0].split(" ");
        if (requestLine.length < 2) {
            throw new IOException("no request line: " + head);
        }
        String target = requestLine[1];
        int question = target.indexOf('?');
        Map<String, String> query = new HashMap<>();
        if (question >= 0) {
            for (String pair : target.substring(question + 1).split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
        }
        return new Request(question < 0 ? target : target.substring(0, question), query, accept);
    }
}
