package dev.idempotency.internal.stores.infinispan;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * The clients of {@link InfinispanPartitionIT}: one thread per node, each starting a request to its
 * node at most once every {@code pace}, with at most {@link #IN_FLIGHT} of its requests unanswered at
 * a time (a request that waits for an answer, such as one whose node is completing it while cut off,
 * does not stop the requests after it). Each thread alternates between two kinds of keys:
 *
 * <ul>
 *   <li>shared keys {@code <run>-s<i>}: every thread walks the same sequence at its own speed, so a
 *       key reaches several nodes, at the same moment or later (duplicates race, and a node that is
 *       behind or ahead sends keys the others completed or have not sent yet);
 *   <li>private keys {@code <run>-p<node>-<i>}: sent to that node only, so they are new there.
 * </ul>
 *
 * <p>Every answer is kept with its send and answer times. The threads stop sending when {@link
 * #stopSending} is called or, whatever happens, when the hard limit given to the constructor has
 * passed; each request has its own time limit, so {@link #awaitAnswers} never waits longer than that.
 */
final class PartitionTraffic {

    /** Unanswered requests per node at most. */
    static final int IN_FLIGHT = 4;

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
    private final Queue<CompletableFuture<?>> requests = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    /**
     * @param uri the URI of a key on a node
     * @param hardLimit after this, counted from now, the threads stop sending by themselves
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
     * Stops the threads from sending and waits for them, at most {@code limit}. Requests already sent
     * go on until answered or timed out.
     *
     * @return whether every thread ended
     */
    boolean stopSending(Duration limit) throws InterruptedException {
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

    /**
     * Waits until every request sent has its outcome, at most {@code limit}.
     *
     * @return the requests still unanswered (none, unless a request outlived its own time limit)
     */
    long awaitAnswers(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (CompletableFuture<?> f : requests) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                f.get(left, TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // counted below
            }
        }
        return requests.stream().filter(f -> !f.isDone()).count();
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
        Semaphore free = new Semaphore(IN_FLIGHT);
        int shared = 0;
        int own = 0;
        long next = System.nanoTime();
        for (int i = 0; !stopped && System.nanoTime() < hardDeadline; ) {
            try {
                if (free.tryAcquire(pace.toNanos(), TimeUnit.NANOSECONDS)) {
                    String key = i++ % 2 == 0 ? sharedKey(run, shared++) : privateKey(run, node, own++);
                    requests.add(send(node, key).whenComplete((o, t) -> {
                        outcomes.add(o);
                        free.release();
                    }));
                }
                next += pace.toNanos();
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } else {
                    next = System.nanoTime(); // behind (requests in flight): no burst to catch up
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private CompletableFuture<Outcome> send(int node, String key) {
        long sent = System.nanoTime();
        long sentMillis = System.currentTimeMillis();
        HttpRequest request = HttpRequest.newBuilder(uri.apply(node, key))
                .timeout(requestLimit)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((r, t) -> r != null
                        ? new Outcome(key, node, sent, sentMillis, System.nanoTime(), r.statusCode(), r.body())
                        : new Outcome(key, node, sent, sentMillis, System.nanoTime(), -1, String.valueOf(t)));
    }
}
