package dev.idempotency.internal.stores.infinispan;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP forwarder in the test JVM: it listens on an address of the root namespace that the nodes'
 * namespaces reach (the client bridge) and copies bytes both ways to a target only the root namespace
 * reaches (PostgreSQL on 127.0.0.1:5432). Two daemon threads per connection; {@link #close} closes
 * the listening socket and every open connection.
 */
final class PartitionForwarder implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param listen the address to listen on (an ephemeral port)
     * @param target where to forward each connection
     */
    PartitionForwarder(String listen, InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(listen), 0), 200);
        Thread acceptor = new Thread(this::acceptLoop, "partition-forwarder-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port it listens on. */
    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    long accepted() {
        return accepted.get();
    }

    /** Connections whose target could not be reached. */
    long failed() {
        return failed.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 5_000);
            } catch (IOException e) {
                failed.incrementAndGet();
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
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
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other direction's end, or close()
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                        open.remove(from);
                        open.remove(to);
                    }
                },
                "partition-forwarder-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // nothing to do
        }
    }
}
