package dev.idempotency.internal.stores;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThrottleTest {

    @Test
    void theFirstEventPassesAndTheRestOfItsPeriodDoesNot() {
        Throttle throttle = new Throttle(Duration.ofMinutes(10));

        assertThat(throttle.warningLevel()).isEqualTo(Level.WARNING);
        assertThat(throttle.warningLevel()).isEqualTo(Level.DEBUG);
        assertThat(throttle.pass()).isFalse();
    }

    @Test
    void theFirstEventOfTheNextPeriodPassesAgain() throws InterruptedException {
        Throttle throttle = new Throttle(Duration.ofMillis(50));
        assertThat(throttle.pass()).isTrue();
        assertThat(throttle.pass()).isFalse();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        boolean passed = false;
        int refused = 0;
        while (!passed && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            passed = throttle.pass();
            refused += passed ? 0 : 1;
        }
        assertThat(passed)
                .as("an event passes after the 50 ms period (refused %d times within 5 s)", refused)
                .isTrue();
        assertThat(throttle.pass()).isFalse();
    }

    @Test
    void ofConcurrentEventsExactlyOnePasses() throws Exception {
        Throttle throttle = new Throttle(Duration.ofMinutes(10));
        int threads = 16;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> passes = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Callable<Integer> events = () -> {
                    start.await(5, TimeUnit.SECONDS);
                    int passed = 0;
                    for (int i = 0; i < 1_000; i++) {
                        passed += throttle.pass() ? 1 : 0;
                    }
                    return passed;
                };
                passes.add(pool.submit(events));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : passes) {
                total += f.get(10, TimeUnit.SECONDS);
            }
            assertThat(total).as("events that passed out of 16,000").isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
