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
import dev.idempotency.internal.stores.infinispan.ClusterNodes;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.infinispan.InfinispanLocalStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import dev.idempotency.internal.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.internal.stores.jpa.JpaStores;
import dev.idempotency.internal.stores.jpa.JpaStoreSettings;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStores;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A waiting duplicate ({@code onInProgress = WAIT}): how long after the owner's completion it replays,
 * and how often it asks the store while it waits. Two placements per store, side by side: the owner on
 * the waiter's node (its engine wakes the waiter) and on another node (another engine: on the same
 * store, or for {@code infinispan-cluster} on another member of a three-member cluster in this JVM,
 * both followers, JGroups ports 7883-7885). {@code infinispan} (a local cache) has the first only.
 *
 * <pre>
 *   bash bench/wait-latency.sh [trials] [stores] [hold ms] [notices]
 *   # default 200 trials; memory,jpa,jpa-notify,redis; 40 ms; on
 * </pre>
 *
 * Each trial: the owner claims a new key, the waiter starts and waits, the owner completes 40 ms (the
 * hold) later. {@code notices}: {@code on}, {@code off} (the store's settlement notices are not used:
 * {@code notifySettlements} answers false, and the cluster's leader does not tell followers of
 * commits at once, as before either existed) or {@code both}, off then on for each store.
 * Printed per store, setting and placement: p50 and p99 of completion-to-replay, and the waiter's
 * store calls per second of waiting.
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
        String notices = args.length > 3 ? args[3] : "on";
        List<Boolean> settings = switch (notices) {
            case "on" -> List.of(true);
            case "off" -> List.of(false);
            case "both" -> List.of(false, true);
            default -> throw new IllegalArgumentException("notices: on, off or both, not " + notices);
        };
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            for (String name : stores) {
                try (Opened opened = open(name)) {
                    for (boolean on : settings) {
                        opened.notices.accept(on);
                        Counting counting = new Counting(opened.store, on);
                        IdempotencyEngine waiterNode = engine(counting);
                        IdempotencyEngine otherNode = opened.other == null ? null : engine(opened.other);
                        String label = name + " notices=" + (on ? "on " : "off");
                        run(label, "same node ", waiterNode, waiterNode, counting, trials / 4, pool); // warm-up
                        if (otherNode != null) {
                            run(label, "other node", otherNode, waiterNode, counting, trials / 4, pool);
                        }
                        print(run(label, "same node ", waiterNode, waiterNode, counting, trials, pool));
                        if (otherNode != null) {
                            print(run(label, "other node", otherNode, waiterNode, counting, trials, pool));
                        }
                    }
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
                "store=%-30s owner=%s hold=%d ms trials=%d p50=%.2f ms p99=%.2f ms store-calls-per-waiting-second=%.1f%n",
                r.store,
                r.placement,
                holdMillis,
                n.length,
                n[n.length / 2] / 1e6,
                n[(int) Math.min(n.length - 1, Math.ceil(n.length * 0.99) - 1)] / 1e6,
                r.callsPerWaitingSecond);
    }

    /** Counts the waiter's claims; with notices off, tells the engine that the store sends none. */
    private static final class Counting extends DelegatingStore {
        final AtomicLong claims = new AtomicLong();
        private final boolean notices;

        Counting(IdempotencyStore store, boolean notices) {
            super(store);
            this.notices = notices;
        }

        @Override
        public boolean notifySettlements(Consumer<String> listener) {
            return notices && super.notifySettlements(listener);
        }

        @Override
        public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
            claims.incrementAndGet();
            return super.claim(key, owner, fingerprint, lease);
        }
    }

    /**
     * @param store the waiter's node's store
     * @param other the store of another node's engine: the same store, or another member's; {@code null}
     *     when the store has no other node (a local cache)
     * @param notices turns what notices need in the store on or off (the cluster's prompt commits)
     */
    private record Opened(
            IdempotencyStore store, IdempotencyStore other, Consumer<Boolean> notices, AutoCloseable resources)
            implements AutoCloseable {

        Opened(IdempotencyStore store, AutoCloseable resources) {
            this(store, store, on -> {}, resources);
        }

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
                JpaIdempotencyStore jpa = JpaStores.resourceLocal(
                        pool,
                        JpaStoreSettings.from(ConfigLookup.of(Map.of(
                                JpaStoreSettings.NOTIFY_SETTLEMENTS, Boolean.toString(name.equals("jpa-notify"))))),
                        Clock.systemUTC());
                return new Opened(jpa, () -> {
                    jpa.close();
                    pool.close();
                });
            case "infinispan":
                var local = (InfinispanLocalStore) InfinispanStores.start(
                        ConfigLookup.none(), new Properties(), WaitLatency.class.getClassLoader());
                return new Opened(local, null, on -> {}, local::close);
            case "infinispan-cluster":
                return openCluster();
            default:
                throw new IllegalArgumentException(
                        "unknown store " + name + " (memory, jpa, jpa-notify, redis, infinispan, infinispan-cluster)");
        }
    }

    /** Three members in this JVM; the waiter on a follower, the other node's owner on the other follower. */
    private static Opened openCluster() {
        List<Integer> ports = List.of(TestServices.port(7883), TestServices.port(7884), TestServices.port(7885));
        ClusterNodes cluster = new ClusterNodes("wait-latency", ports, Map.of());
        InfinispanRaftStore[] members = new InfinispanRaftStore[ports.size()];
        AutoCloseable stop = () -> {
            for (int i = members.length - 1; i >= 0; i--) {
                if (members[i] != null) {
                    members[i].close();
                }
            }
        };
        try {
            for (int i = 0; i < members.length; i++) {
                members[i] = cluster.start(ports.get(i));
            }
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), members);
            List<InfinispanRaftStore> followers = Stream.of(members)
                    .filter(m -> !m.raftId().equals(m.leader()))
                    .toList();
            return new Opened(
                    followers.get(1), followers.get(0), on -> ClusterNodes.promptCommits(on, members), stop);
        } catch (Exception | Error e) {
            try {
                stop.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IllegalStateException("the Infinispan cluster did not start: " + e, e);
        }
    }
}
