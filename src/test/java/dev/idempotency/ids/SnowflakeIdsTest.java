package dev.idempotency.ids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.Races;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SnowflakeIdsTest {

    private static final Instant EPOCH = Instant.parse("2024-01-01T00:00:00Z");

    @Test
    void idsCarryTheLayoutTimestampWorkerAndSequence() {
        long now = EPOCH.toEpochMilli() + 123_456_789L;
        SnowflakeIds ids = new SnowflakeIds(1023, EPOCH, Duration.ofSeconds(1), () -> now);
        long first = ids.nextId();
        long second = ids.nextId();
        assertThat(first).isPositive();
        assertThat(ids.instantOf(first)).isEqualTo(Instant.ofEpochMilli(now));
        assertThat(SnowflakeIds.workerOf(first)).isEqualTo(1023);
        assertThat(SnowflakeIds.sequenceOf(first)).isZero();
        assertThat(SnowflakeIds.sequenceOf(second)).isEqualTo(1);
        assertThat(first >>> 22).isEqualTo(123_456_789L);
    }

    /** 4 threads × 250,000 ids at one start instant: all distinct, each thread's strictly increasing. */
    @Test
    void idsAreUniqueAcrossThreadsAndIncreasingInEachThread() throws Exception {
        SnowflakeIds ids = new SnowflakeIds(5, EPOCH, Duration.ofSeconds(1));
        int threads = 4;
        int perThread = 250_000;
        Races races = new Races(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<long[]>> results = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    long[] mine = new long[perThread];
                    races.await();
                    for (int i = 0; i < perThread; i++) {
                        mine[i] = ids.nextId();
                    }
                    return mine;
                }));
            }
            long[] all = new long[threads * perThread];
            int k = 0;
            for (Future<long[]> f : results) {
                long[] mine = f.get(2, TimeUnit.MINUTES);
                for (int i = 1; i < mine.length; i++) {
                    assertThat(mine[i]).isGreaterThan(mine[i - 1]);
                }
                System.arraycopy(mine, 0, all, k, mine.length);
                k += mine.length;
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertThat(all[i]).as("id %d", i).isNotEqualTo(all[i - 1]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClockStepBackWithinTheBoundKeepsIdsIncreasingFromTheLastTimestamp() {
        AtomicLong clock = new AtomicLong(EPOCH.toEpochMilli() + 10_000);
        SnowflakeIds ids = new SnowflakeIds(1, EPOCH, Duration.ofMillis(500), clock::get);
        long before = ids.nextId();
        clock.addAndGet(-400);
        long during = ids.nextId();
        assertThat(during).isGreaterThan(before);
        assertThat(ids.instantOf(during)).isEqualTo(ids.instantOf(before));
        clock.addAndGet(401);
        long after = ids.nextId();
        assertThat(after).isGreaterThan(during);
        assertThat(ids.instantOf(after)).isEqualTo(Instant.ofEpochMilli(clock.get()));
    }

    @Test
    void aSequenceUsedUpWhileTheClockIsBehindWaitsForTheClock() throws Exception {
        AtomicLong clock = new AtomicLong(EPOCH.toEpochMilli() + 10_000);
        SnowflakeIds ids = new SnowflakeIds(1, EPOCH, Duration.ofMillis(500), clock::get);
        for (int i = 0; i < 4096; i++) {
            ids.nextId();
        }
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Future<Long> waiting = one.submit(ids::nextId);
            Thread.sleep(200);
            assertThat(waiting).isNotDone();
            clock.incrementAndGet();
            long id = waiting.get(10, TimeUnit.SECONDS);
            assertThat(SnowflakeIds.sequenceOf(id)).isZero();
            assertThat(ids.instantOf(id)).isEqualTo(Instant.ofEpochMilli(clock.get()));
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void aClockStepBackBeyondTheBoundFailsWithTheConfigKey() {
        AtomicLong clock = new AtomicLong(EPOCH.toEpochMilli() + 10_000);
        SnowflakeIds ids = new SnowflakeIds(1, EPOCH, Duration.ofMillis(500), clock::get);
        long before = ids.nextId();
        clock.addAndGet(-501);
        assertThatThrownBy(ids::nextId)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("501 ms behind")
                .hasMessageContaining(IdSettings.MAX_CLOCK_BACKWARD);
        clock.addAndGet(501);
        assertThat(ids.nextId()).isGreaterThan(before);
    }

    @Test
    void settingsHaveDefaultsAndInvalidValuesNameTheKey() {
        IdSettings d = IdSettings.from(ConfigLookup.none());
        assertThat(d.workerId()).isZero();
        assertThat(d.epoch()).isEqualTo(EPOCH);
        assertThat(d.maxClockBackward()).isEqualTo(Duration.ofSeconds(1));
        IdSettings s = IdSettings.from(ConfigLookup.of(Map.of(
                IdSettings.WORKER_ID, "1023",
                IdSettings.EPOCH, "2020-01-01T00:00:00Z",
                IdSettings.MAX_CLOCK_BACKWARD, "PT0S")));
        assertThat(s.workerId()).isEqualTo(1023);
        assertThat(s.generator().nextId()).isPositive();
        for (String bad : new String[] {"1024", "-1", "seven"}) {
            assertThatThrownBy(() -> IdSettings.from(ConfigLookup.of(Map.of(IdSettings.WORKER_ID, bad))))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(IdSettings.WORKER_ID)
                    .hasMessageContaining("0 to 1023");
        }
        assertThatThrownBy(() -> IdSettings.from(ConfigLookup.of(Map.of(IdSettings.EPOCH, "2999-01-01T00:00:00Z"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("future");
        assertThatThrownBy(() -> IdSettings.from(ConfigLookup.of(Map.of(IdSettings.EPOCH, "yesterday"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(IdSettings.EPOCH);
        assertThatThrownBy(() -> IdSettings.from(ConfigLookup.of(Map.of(IdSettings.MAX_CLOCK_BACKWARD, "-PT1S"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(IdSettings.MAX_CLOCK_BACKWARD);
    }
}
