package dev.idempotency.examples.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks so that they really start at the same instant: every thread waits at a latch, then spins
 * until a common deadline (a latch alone lets the first threads run before the last are scheduled).
 */
final class Together {

    private Together() {}

    static <T> List<T> run(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            CountDownLatch ready = new CountDownLatch(tasks.size());
            long[] goAt = new long[1];
            CountDownLatch armed = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    armed.await();
                    while (System.nanoTime() < goAt[0]) {
                        Thread.onSpinWait();
                    }
                    return task.call();
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("threads did not start");
            }
            goAt[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
            armed.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
