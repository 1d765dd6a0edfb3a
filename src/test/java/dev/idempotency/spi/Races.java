package dev.idempotency.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A start gate that makes racing threads really collide on two cores. A barrier alone lets the first
 * released thread finish before the last one is scheduled; here the barrier's action sets one common
 * instant ~200 µs ahead, and every party spins until it, so they all leave within microseconds.
 * Reusable: each {@link #await()} is one round.
 */
public final class Races {

    private final CyclicBarrier barrier;
    private volatile long goAt;

    /** @param parties how many threads race each round */
    public Races(int parties) {
        this.barrier = new CyclicBarrier(parties, () -> goAt = System.nanoTime() + 200_000);
    }

    /** Waits for all parties, then spins until the common start instant. */
    public void await() {
        try {
            barrier.await(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("a racing thread failed or hung", e);
        }
        long start = goAt;
        while (System.nanoTime() < start) {
            Thread.onSpinWait();
        }
    }

    /**
     * Runs {@code call} on {@code callers} threads of {@code executor}, released together. Returns
     * each caller's result, or the runtime exception it threw (as a value, so tests can inspect it).
     */
    public static List<Object> race(ExecutorService executor, int callers, Callable<Object> call)
            throws InterruptedException {
        Races gate = new Races(callers);
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            futures.add(executor.submit(() -> {
                gate.await();
                try {
                    return call.call();
                } catch (RuntimeException e) {
                    return e;
                }
            }));
        }
        List<Object> outcomes = new ArrayList<>();
        for (Future<Object> f : futures) {
            try {
                outcomes.add(f.get(2, TimeUnit.MINUTES));
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("a caller failed unexpectedly", e);
            }
        }
        return outcomes;
    }
}
