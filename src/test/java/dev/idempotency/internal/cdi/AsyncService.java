package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Guarded methods returning stages that the test completes by hand ({@link #finish}, {@link #fail}),
 * so it controls when each call's outcome exists. Counts real executions per key.
 */
@ApplicationScoped
public class AsyncService {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();

    /** Completes when the test says; the value names the run. */
    @Idempotent(name = "async.later")
    public CompletionStage<String> later(@IdempotencyKey String id) {
        int run = ran(id);
        return stage(id).thenApply(v -> v + "-run-" + run);
    }

    /** The same, but a concurrent repeat waits for the outcome. */
    @Idempotent(name = "async.waiting", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    public CompletableFuture<String> waiting(@IdempotencyKey String id) {
        int run = ran(id);
        return stage(id).thenApply(v -> v + "-run-" + run);
    }

    /** Completes with a value of a generic type, replayed as that type. */
    @Idempotent(name = "async.lines")
    public CompletionStage<java.util.List<OrderLine>> lines(@IdempotencyKey String id) {
        int run = ran(id);
        return stage(id).thenApply(v -> java.util.List.of(new OrderLine(v + "-run-" + run, run, "1.50")));
    }

    /** Fails synchronously, before returning a stage: a rule of the method, not of the stage. */
    @Idempotent(name = "async.throws")
    public CompletionStage<String> throwsAtOnce(@IdempotencyKey String id) {
        ran(id);
        throw new IllegalStateException("refused before any stage");
    }

    /** Completes the stage of {@code id} with {@code value}. */
    void finish(String id, String value) {
        stage(id).complete(value);
    }

    /** Completes the stage of {@code id} with {@code failure}. */
    void fail(String id, Throwable failure) {
        stage(id).completeExceptionally(failure);
    }

    /** Forgets the stage of {@code id}, so that the next run gets a fresh one. */
    void reset(String id) {
        pending.remove(id);
    }

    int runs(String id) {
        AtomicInteger n = runs.get(id);
        return n == null ? 0 : n.get();
    }

    private int ran(String id) {
        return runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    private CompletableFuture<String> stage(String id) {
        return pending.computeIfAbsent(id, k -> new CompletableFuture<>());
    }
}
