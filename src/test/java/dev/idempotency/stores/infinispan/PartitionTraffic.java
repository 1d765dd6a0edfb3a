package dev.idempotency.stores.infinispan;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The clients of {@link InfinispanPartitionIT}: one thread per node, each sending one request at a
 * time to its node, at most one every {@code pace}. Each thread alternates between two kinds of keys:
 *
 * <ul>
 *   <li>shared keys {@code <run>-s<i>}: every thread walks the same sequence at its own speed, so a
 *       key reaches several nodes, at the same moment or later (duplicates race, and a node that is
 *       behind or ahead sends keys the others completed or have not sent yet);
 *   <li>private keys {@code <run>-p<node>-<i>}: sent to that node only, so they are new there.
 * </ul>
 *
 * <p>Every answer is kept with its send and answer times. The threads stop when {@link #stop} is
 * called or, whatever happens, when the hard limit given to the constructor has passed; each request
 * has its own time limit, so a thread never waits for a request longer than that.
 */
final class PartitionTraffic {

    /** One request and what came of it; {@code status} -1 means no answer (the body says why). */
    record Outcome(String key, int node, long sentNanos, long sentMillis, long doneNanos, int status, String body) {}

    private final HttpClient http;
    private final BiFunction<Integer, String, URI> uri;
    private final int nodes;
    private final String run;
    private final Duration pace;
    private final Duration requestLimit;
    private final long hardDeadline;
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    /**
     * @param uri the URI of a key on a node
     * @param hardLimit after this, counted from now, the threads stop by themselves
     */
    PartitionTraffic(
            HttpClient http,
            BiFunction<Integer, String, URI> uri,
            int nodes,
            String run,
            Duration pace,
            Duration requestLimit,
            Duration hardLimit) {
        this.http = http;
        this.uri = uri;
        this.nodes = nodes;
        this.run = run;
        this.pace = pace;
        this.requestLimit = requestLimit;
        this.hardDeadline = System.nanoTime() + hardLimit.toNanos();
    }

    void start() {
        for (int n = 0; n < nodes; n++) {
            int node = n;
            Thread t = new Thread(() -> client(node), "partition-client-" + n);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /**
     * Stops the threads and waits for them, at most {@code limit}.
     *
     * @return whether every thread ended
     */
    boolean stop(Duration limit) throws InterruptedException {
        stopped = true;
        long deadline = System.nanoTime() + limit.toNanos();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /** Every answer so far. */
    List<Outcome> outcomes() {
        return new ArrayList<>(outcomes);
    }

    /** The shared key with index {@code i}. */
    static String sharedKey(String run, int i) {
        return run + "-s" + i;
    }

    /** The private key with index {@code i} of node {@code node}. */
    static String privateKey(String run, int node, int i) {
        return run + "-p" + node + "-" + i;
    }

    private void client(int node) {
        int shared = 0;
        int own = 0;
        long next = System.nanoTime();
        for (int i = 0; !stopped && System.nanoTime() < hardDeadline; i++) {
            String key = i % 2 == 0 ? sharedKey(run, shared++) : privateKey(run, node, own++);
            outcomes.add(send(node, key));
            next += pace.toNanos();
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                next = System.nanoTime(); // behind (a slow answer): no burst to catch up
            }
        }
    }

    private Outcome send(int node, String key) {
        long sent = System.nanoTime();
        long sentMillis = System.currentTimeMillis();
        HttpRequest request = HttpRequest.newBuilder(uri.apply(node, key))
                .timeout(requestLimit)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Outcome(key, node, sent, sentMillis, System.nanoTime(), r.statusCode(), r.body());
        } catch (IOException e) {
            return new Outcome(key, node, sent, sentMillis, System.nanoTime(), -1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(key, node, sent, sentMillis, System.nanoTime(), -1, e.toString());
        }
    }
}
