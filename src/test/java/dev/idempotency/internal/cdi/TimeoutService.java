package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Guarded methods that time out while their work goes on, on a pool, until the test lets it end
 * ({@link #finish}). Counts the work's executions per key.
 */
@ApplicationScoped
public class TimeoutService {

    /** Short, so that a test sees a held claim end. */
    static final String LEASE = "PT2S";

    private static final long TIMEOUT_MILLIS = 100;

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, CountDownLatch> gates = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> ended = new ConcurrentHashMap<>();

    /** Returns the work's stage already bounded by {@code orTimeout}: the guard sees only the timeout. */
    @Idempotent(name = "timeout.stage", lease = LEASE)
    public CompletionStage<String> stage(@IdempotencyKey String id) {
        return work(id).orTimeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Waits for the work with a bound, as {@code orTimeout(...).join()} does: an unchecked timeout. */
    @Idempotent(name = "timeout.joined", lease = LEASE)
    public String joined(@IdempotencyKey String id) {
        return work(id).orTimeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).join();
    }

    /** Waits with {@code Future.get(timeout)}: a checked timeout, which the default rule would keep. */
    @Idempotent(name = "timeout.checked", lease = LEASE)
    public String checked(@IdempotencyKey String id) throws TimeoutException, InterruptedException, ExecutionException {
        return work(id).get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Fails as Fault Tolerance's {@code @Timeout} does, while the work goes on. */
    @Idempotent(name = "timeout.ft", lease = LEASE)
    public String faultTolerance(@IdempotencyKey String id) throws InterruptedException, ExecutionException {
        try {
            return work(id).get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException(
                    "timed out after " + TIMEOUT_MILLIS + " ms");
        }
    }

    /** The user's rule names the timeout: it releases the key, as {@code releaseOn} says. */
    @Idempotent(name = "timeout.released", lease = LEASE, releaseOn = TimeoutException.class)
    public CompletionStage<String> released(@IdempotencyKey String id) {
        return work(id).orTimeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Fault Tolerance's {@code @Asynchronous @Timeout} (a stand-in): the caller's stage fails at the
     * timeout while the body waits for the work on another thread.
     */
    @Idempotent(name = "timeout.outside-async", lease = LEASE)
    @TimesOut(waits = false)
    public CompletionStage<String> outsideAsync(@IdempotencyKey String id) {
        return CompletableFuture.completedFuture(work(id).join());
    }

    /** Fault Tolerance's {@code @Timeout} alone (a stand-in): the timeout is thrown when the body returns. */
    @Idempotent(name = "timeout.outside-sync", lease = LEASE)
    @TimesOut(waits = true)
    public String outsideSync(@IdempotencyKey String id) {
        return work(id).join();
    }

    /** Like {@link #outsideAsync}, but the body fails (unchecked) once the work ended. */
    @Idempotent(name = "timeout.outside-fails", lease = LEASE)
    @TimesOut(waits = false)
    public CompletionStage<String> outsideFails(@IdempotencyKey String id) {
        throw new IllegalStateException("declined after " + work(id).join());
    }

    /** Lets the running work of {@code id} end. */
    void finish(String id) {
        gate(id).countDown();
    }

    /** How often the work of {@code id} started. */
    int runs(String id) {
        AtomicInteger n = runs.get(id);
        return n == null ? 0 : n.get();
    }

    /** How often the work of {@code id} ended. */
    int ended(String id) {
        AtomicInteger n = ended.get(id);
        return n == null ? 0 : n.get();
    }

    @PreDestroy
    void stop() {
        gates.values().forEach(CountDownLatch::countDown);
        pool.shutdownNow();
    }

    private CompletableFuture<String> work(String id) {
        int run = runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        CountDownLatch gate = gate(id);
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        if (!gate.await(30, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the test never let the work of " + id + " end");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    ended.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                    return id + "-run-" + run;
                },
                pool);
    }

    private CountDownLatch gate(String id) {
        return gates.computeIfAbsent(id, k -> new CountDownLatch(1));
    }
}
