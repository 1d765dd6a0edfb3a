package dev.idempotency.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.ExceptionPolicy;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.IdempotencyObserver;
import dev.idempotency.internal.core.KeepAlive;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.core.WaitLimits;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.DelegatingStore;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.internal.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.internal.stores.jpa.JpaStoreSettings;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStores;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A waiting duplicate ({@code onInProgress = WAIT}): how long after the owner's completion it replays,
 * and how often it asks the store while it waits. Two placements per store, side by side: the owner on
 * the waiter's node (its engine wakes the waiter) and on another node (another engine on the same
 * store: the waiter polls, as every waiter did before the wake-up existed).
 *
 * <pre>
 *   bash bench/wait-latency.sh [trials] [stores] [hold ms]   # default 200 trials; memory,jpa,jpa-notify,redis; 40 ms
 * </pre>
 *
 * Each trial: the owner claims a new key, the waiter starts and waits, the owner completes 40 ms (the
 * hold) later.
 * Printed per store and placement: p50 and p99 of completion-to-replay, and the waiter's store calls per
 * second of waiting.
 */
public final class WaitLatency {

    private static final OperationPolicy WAIT = new OperationPolicy(
            "bench.wait", Duration.ofHours(1), Duration.ofSeconds(30), InProgressPolicy.WAIT, ExceptionPolicy.DEFAULT,
            false);
    private static long holdMillis = 40;

    private WaitLatency() {}

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        String[] stores = (args.length > 1 ? args[1] : "memory,jpa,jpa-notify,redis").split(",");
        holdMillis = args.length > 2 ? Long.parseLong(args[2]) : 40;
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            for (String name : stores) {
                try (Opened opened = open(name)) {
                    Counting counting = new Counting(opened.store);
                    IdempotencyEngine waiterNode = engine(counting);
                    IdempotencyEngine otherNode = engine(opened.store);
                    run(name, "same node ", waiterNode, waiterNode, counting, trials / 4, pool); // warm-up
                    run(name, "other node", otherNode, waiterNode, counting, trials / 4, pool);
                    print(run(name, "same node ", waiterNode, waiterNode, counting, trials, pool));
                    print(run(name, "other node", otherNode, waiterNode, counting, trials, pool));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static IdempotencyEngine engine(IdempotencyStore store) {
        return new IdempotencyEngine(
                store, Duration.ofSeconds(1), IdempotencyObserver.NONE, WaitLimits.DEFAULT, KeepAlive.OFF, "");
    }

    private record Result(String store, String placement, long[] nanos, double callsPerWaitingSecond) {}

    private static Result run(
            String store,
            String placement,
            IdempotencyEngine owner,
            IdempotencyEngine waiter,
            Counting counting,
            int trials,
            ExecutorService pool)
            throws Exception {
        long[] latencies = new long[trials];
        long calls = 0;
        long waited = 0;
        for (int i = 0; i < trials; i++) {
            RecordKey key = RecordKey.of("bench.wait", "", UUID.randomUUID().toString());
            Admission.Owned owned = (Admission.Owned) owner.begin(WAIT, key, "fp");
            long before = counting.claims.get();
            long started = System.nanoTime();
            CompletableFuture<Long> replayedAt = CompletableFuture.supplyAsync(
                    () -> {
                        Admission a = waiter.begin(WAIT, key, "fp");
                        long at = System.nanoTime();
                        if (!(a instanceof Admission.Replay)) {
                            throw new IllegalStateException("the waiter ran instead of replaying");
                        }
                        return at;
                    },
                    pool);
            TimeUnit.MILLISECONDS.sleep(holdMillis);
            long completed = System.nanoTime();
            owner.complete(owned, new byte[] {1});
            long at = replayedAt.get(30, TimeUnit.SECONDS);
            latencies[i] = at - completed;
            calls += counting.claims.get() - before;
            waited += at - started;
        }
        Arrays.sort(latencies);
        return new Result(store, placement, latencies, calls / (waited / 1e9));
    }

    private static void print(Result r) {
        long[] n = r.nanos;
        System.out.printf(
                "store=%-10s owner=%s hold=%d ms trials=%d p50=%.2f ms p99=%.2f ms store-calls-per-waiting-second=%.1f%n",
                r.store,
                r.placement,
                holdMillis,
                n.length,
                n[n.length / 2] / 1e6,
                n[(int) Math.min(n.length - 1, Math.ceil(n.length * 0.99) - 1)] / 1e6,
                r.callsPerWaitingSecond);
    }

    /** Counts the waiter's claims. */
    private static final class Counting extends DelegatingStore {
        final AtomicLong claims = new AtomicLong();

        Counting(IdempotencyStore store) {
            super(store);
        }

        @Override
        public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
            claims.incrementAndGet();
            return super.claim(key, owner, fingerprint, lease);
        }
    }

    private record Opened(IdempotencyStore store, AutoCloseable resources) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            if (resources != null) {
                resources.close();
            }
        }
    }

    private static Opened open(String name) {
        switch (name) {
            case "memory":
                return new Opened(new MemoryIdempotencyStore(), null);
            case "redis":
                var redis = RedisStores.start(ConfigLookup.of(Map.of(
                        RedisStoreSettings.URI, "redis://127.0.0.1:6379/15",
                        RedisStoreSettings.KEY_PREFIX, "bench-wait:")));
                return new Opened(redis, redis::close);
            case "jpa", "jpa-notify":
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(TestServices.postgresUrl());
                config.setUsername("postgres");
                config.setMaximumPoolSize(8);
                HikariDataSource pool = new HikariDataSource(config);
                JpaIdempotencyStore jpa = JpaIdempotencyStore.resourceLocal(
                        pool,
                        new JpaStoreSettings(ConfigLookup.of(Map.of(
                                JpaStoreSettings.NOTIFY_SETTLEMENTS, Boolean.toString(name.equals("jpa-notify"))))),
                        Clock.systemUTC());
                return new Opened(jpa, () -> {
                    jpa.close();
                    pool.close();
                });
            default:
                throw new IllegalArgumentException("unknown store " + name + " (memory, jpa, jpa-notify, redis)");
        }
    }
}
