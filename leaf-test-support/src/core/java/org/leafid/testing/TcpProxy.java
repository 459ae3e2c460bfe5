package org.leafid.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on 127.0.0.1 between a program and a server it depends on (the database, ZooKeeper), so a
 * test can break the path in the two ways a real network breaks:
 * <ul>
 *   <li>{@link #cut()} drops every open connection and refuses new ones until {@link #restore()}: the
 *       server is down or unreachable, and the client learns so at once (reset, refusal);</li>
 *   <li>{@link #freeze()} keeps every connection open and accepts new ones but passes no byte either way
 *       until {@link #thaw()}: a partition that drops packets silently, which a client only notices
 *       through its own timeouts. Thawed, the held bytes go through, as TCP would retransmit them.</li>
 * </ul>
 * {@link #held()} tells a test that the freeze has something in hand, so it can check that nothing
 * reached the far side without waiting for a time.
 */
public final class TcpProxy implements AutoCloseable {

    private volatile InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private final AtomicInteger held = new AtomicInteger();
    private volatile boolean cut;
    private volatile boolean frozen;
    private volatile boolean closed;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("accept", this::acceptLoop);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Drops every connection and refuses new ones (accepted, then closed at once) until {@link #restore()}. */
    public void cut() {
        cut = true;
        dropAll();
    }

    public void restore() {
        cut = false;
    }

    /**
     * Sends new connections to another server and drops the open ones: a virtual address moved to
     * the new primary after a failover.
     */
    public void retarget(String targetHost, int targetPort) {
        target = new InetSocketAddress(targetHost, targetPort);
        dropAll();
    }

    /** Passes no byte and opens no connection to the target until {@link #thaw()}; nothing is closed. */
    public void freeze() {
        frozen = true;
    }

    public void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
    }

    /** How many relay directions and pending connections are waiting for {@link #thaw()} right now. */
    public int held() {
        return held.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        dropAll();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // listener closed
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            open.add(client);
            daemon("connect", () -> connect(client));
        }
    }

    private void connect(Socket client) {
        Socket upstream = new Socket();
        try {
            awaitThawed(client);
            open.add(upstream);
            // A cut() that ran while this connection was being made may have missed it in the open set:
            // checking after adding closes it either way.
            if (cut || closed || client.isClosed()) {
                throw new IOException("the proxy was cut or closed while connecting");
            }
            upstream.connect(target, 2_000);
            daemon("pipe", () -> pipe(client, upstream));
            daemon("pipe", () -> pipe(upstream, client));
        } catch (IOException | InterruptedException e) {
            // the client sees its connection closed, as it would if the target refused it
            release(client, upstream);
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                awaitThawed(from, to);
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side closed, or cut()/close() did; closing both ends below ends the pair
        } finally {
            release(from, to);
        }
    }

    /**
     * Waits while frozen. The wait also ends when the proxy is closed or one of the ends is (cut(), or the
     * other direction finishing); it is bounded in steps because a socket closing does not notify the gate.
     */
    private void awaitThawed(Socket... ends) throws InterruptedException {
        synchronized (gate) {
            if (!frozen) {
                return;
            }
            held.incrementAndGet();
            try {
                while (frozen && !closed && !anyClosed(ends)) {
                    gate.wait(100);
                }
            } finally {
                held.decrementAndGet();
            }
        }
    }

    private void dropAll() {
        for (Socket socket : open) {
            closeQuietly(socket);
            open.remove(socket);
        }
        synchronized (gate) {
            gate.notifyAll();
        }
    }

    private void release(Socket first, Socket second) {
        closeQuietly(first);
        closeQuietly(second);
        open.remove(first);
        open.remove(second);
    }

    private void daemon(String role, Runnable body) {
        Thread thread = new Thread(body, "tcp-proxy-" + role + "-" + listener.getLocalPort());
        thread.setDaemon(true);
        thread.start();
    }

    private static boolean anyClosed(Socket... sockets) {
        for (Socket socket : sockets) {
            if (socket.isClosed()) {
                return true;
            }
        }
        return false;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a socket that is already broken has nothing left to report
        }
    }
}
