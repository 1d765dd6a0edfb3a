package dev.idempotency.internal.stores;

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
 * A TCP proxy on 127.0.0.1 between a store and its server, for fault tests: it pumps bytes both ways
 * until {@link #cut()} closes every open connection and refuses new ones, as a network fault or a
 * failover does, until {@link #heal()}.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int upstreamPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean cut;
    private volatile boolean closed;

    /** Starts a proxy on a free port of 127.0.0.1 to {@code upstreamPort} on 127.0.0.1. */
    public TcpProxy(int upstreamPort) throws IOException {
        this(0, upstreamPort);
    }

    /** Starts a proxy on {@code port} of 127.0.0.1 (0: a free one) to {@code upstreamPort} on 127.0.0.1. */
    public TcpProxy(int port, int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket();
        this.server.setReuseAddress(true);
        this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far (refused ones included). */
    public int accepted() {
        return accepted.get();
    }

    /** Connections open now. */
    public int openConnections() {
        return open.size() / 2;
    }

    /** Closes every open connection (both sides, with a reset) and refuses new ones until {@link #heal()}. */
    public void cut() {
        cut = true;
        for (Socket s : open) {
            reset(s);
        }
        open.clear();
    }

    /** Lets new connections through again. */
    public void heal() {
        cut = false;
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            if (cut) {
                reset(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort), 2000);
            } catch (IOException e) {
                reset(client);
                reset(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            if (cut) { // cut while connecting
                reset(client);
                reset(upstream);
                continue;
            }
            pump(client, upstream);
            pump(upstream, client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n; (n = in.read(buffer)) >= 0; ) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other side or a cut closed it
                    } finally {
                        reset(from);
                        reset(to);
                        open.remove(from);
                        open.remove(to);
                    }
                },
                "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0); // RST, as a dropped network path or a restarted server answers
        } catch (IOException ignored) {
            // already closed
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
