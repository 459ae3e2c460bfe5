package org.leafid.server.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on 127.0.0.1 that can be frozen: while frozen it keeps every connection open and
 * accepts new ones, but passes no byte either way, as a network partition that drops packets
 * silently does (no reset, no refusal). Thawed, the held bytes go through, as TCP would
 * retransmit them.
 */
final class FreezableProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile boolean frozen;
    private volatile boolean closed;

    FreezableProxy(int targetPort) throws IOException {
        this.target = new InetSocketAddress("127.0.0.1", targetPort);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("freezable-proxy-accept", this::acceptLoop);
    }

    int port() {
        return listener.getLocalPort();
    }

    void freeze() {
        frozen = true;
    }

    void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        thaw();
        listener.close();
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // listener closed
            }
            open.add(client);
            daemon("freezable-proxy-connect", () -> {
                try {
                    awaitThawed();
                    Socket upstream = new Socket();
                    upstream.connect(target, 2_000);
                    open.add(upstream);
                    daemon("freezable-proxy-pipe", () -> pipe(client, upstream));
                    daemon("freezable-proxy-pipe", () -> pipe(upstream, client));
                } catch (IOException | InterruptedException e) {
                    closeQuietly(client);
                }
            });
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                awaitThawed();
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side closed, or the proxy did; closing both ends below ends the pair
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    /** Bounded in steps: close() ends every wait. */
    private void awaitThawed() throws InterruptedException {
        synchronized (gate) {
            while (frozen && !closed) {
                gate.wait(100);
            }
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already broken: nothing left to report
        }
    }
}
