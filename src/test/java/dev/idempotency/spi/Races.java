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
import java.util.function.IntFunction;

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

    /** One racing round of one thread. */
    @FunctionalInterface
    public interface Round<C> {
        /**
         * @param context what this thread made once, before its first round (a node, a client)
         * @param thread the thread's index, 0 to threads - 1
         * @param round the round, 0 to rounds - 1
         */
        void run(C context, int thread, int round) throws Exception;
    }

    /**
     * Runs {@code rounds} rounds on {@code threads} threads: each thread first makes its context,
     * then, for every round, waits at a common gate and runs the round, so that all threads collide
     * on each round. Fails with the first thread's failure, or after 5 minutes.
     */
    public static <C> void rounds(int threads, int rounds, IntFunction<C> perThread, Round<C> round) throws Exception {
        Races gate = new Races(threads);
        ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    C context = perThread.apply(thread);
                    for (int r = 0; r < rounds; r++) {
                        gate.await();
                        round.run(context, thread, r);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
