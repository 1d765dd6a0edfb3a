package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Shows that the race harness used by the contract suite really makes threads collide: a deliberately
 * racy check-then-put (the Camel/JDBC pitfall) produces double winners under it. Without this, a
 * race test passing on the real stores would prove nothing.
 */
class RaceHarnessTest {

    @Test
    void aCheckThenPutClaimLosesTheRaceUnderTheHarness() throws Exception {
        ConcurrentHashMap<Integer, String> map = new ConcurrentHashMap<>();
        int threads = 8;
        int keys = 500;
        AtomicInteger doubles = new AtomicInteger();
        int[] winners = new int[keys];
        Races gate = new Races(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String owner = "t" + t;
                futures.add(pool.submit(() -> {
                    for (int k = 0; k < keys; k++) {
                        gate.await();
                        if (!map.containsKey(k)) { // check ...
                            roundTrip(); // what a JDBC check-then-insert spends between the two
                            map.put(k, owner); // ... then put: not atomic
                            synchronized (winners) {
                                if (++winners[k] == 2) {
                                    doubles.incrementAndGet();
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(doubles.get()).as("keys with two winners under a racy claim").isPositive();
    }

    /**
     * About 100 µs off the CPU, as a JDBC check-then-insert spends between its two statements waiting
     * for the database. Blocking (not spinning) matters on two busy cores: the other racers run in
     * the gap, exactly as they do against a real database.
     */
    private static void roundTrip() {
        java.util.concurrent.locks.LockSupport.parkNanos(100_000);
    }
}
