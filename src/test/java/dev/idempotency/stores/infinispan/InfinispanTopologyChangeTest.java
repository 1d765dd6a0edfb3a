package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.Races;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * Conditional writes while nodes join and leave (REFERENCE pitfall 13, ISPN-3422, ISPN-7140): racing
 * claims through two nodes while a third node repeatedly joins and leaves the cluster. For every key,
 * at most one claimer is told it won; a key reported won twice fails the test. A key whose stored
 * claim is not the winner's (a loser's claim written over it, or applied while every claimer was told
 * it lost) is counted: Infinispan does that rarely in every cache mode, and more than {@link
 * #MAX_OVERWRITTEN} such keys fails the test.
 */
class InfinispanTopologyChangeTest {

    /**
     * Measured: 3 keys in 80 runs of this test (docs/infinispan-store.md), never 2 in a run that counted
     * them all; a configuration that lost atomicity outright would overwrite many more.
     */
    private static final int MAX_OVERWRITTEN = 4;

    @Test
    void claimsRacingThroughAJoinAndLeaveNeverHaveTwoWinnersAndRarelyAnOverwrittenClaim() throws Exception {
        String hosts = "127.0.0.1[" + TestServices.port(7812) + "],127.0.0.1[" + TestServices.port(7813)
                + "],127.0.0.1[" + TestServices.port(7814) + "]";
        String cluster = "idempotency-topology-" + ProcessHandle.current().pid();
        InfinispanIdempotencyStore a = InfinispanClusterStoreTest.start(
                InfinispanClusterStoreTest.node(TestServices.port(7812), cluster, hosts));
        InfinispanIdempotencyStore b = InfinispanClusterStoreTest.start(
                InfinispanClusterStoreTest.node(TestServices.port(7813), cluster, hosts));
        AtomicBoolean racing = new AtomicBoolean(true);
        AtomicInteger topologyChanges = new AtomicInteger();
        ExecutorService churn = Executors.newSingleThreadExecutor();
        int threads = 8;
        int keys = 400;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        QuietLostRaces quiet = new QuietLostRaces();
        try {
            Future<?> churning = churn.submit(() -> {
                while (racing.get()) {
                    InfinispanIdempotencyStore c = InfinispanClusterStoreTest.start(
                            InfinispanClusterStoreTest.node(TestServices.port(7814), cluster, hosts));
                    topologyChanges.incrementAndGet();
                    c.close();
                    topologyChanges.incrementAndGet();
                }
                return null;
            });
            String[] k = new String[keys];
            for (int i = 0; i < keys; i++) {
                k[i] = Hashing.sha256Hex(cluster + "-" + i);
            }
            AtomicReferenceArray<String> winner = new AtomicReferenceArray<>(keys);
            AtomicInteger doubleWins = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            AtomicIntegerArray unavailableOn = new AtomicIntegerArray(keys);
            // What each claimer was told, per key, for the failure message: "racer-3 won", "racer-1
            // lost to racer-3", "racer-5 unavailable (cause)".
            List<Queue<String>> told = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                told.add(new ConcurrentLinkedQueue<>());
            }
            Races gate = new Races(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                InfinispanIdempotencyStore node = t % 2 == 0 ? a : b;
                String owner = "racer-" + t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < keys; i++) {
                        gate.await();
                        try {
                            ClaimResult result = node.claim(k[i], owner, "fp", Duration.ofMinutes(10));
                            if (result.claimed()) {
                                told.get(i).add(owner + " won");
                                if (!winner.compareAndSet(i, null, owner)) {
                                    doubleWins.incrementAndGet();
                                }
                            } else {
                                told.get(i)
                                        .add(owner + " lost to "
                                                + result.record().owner());
                            }
                        } catch (IdempotencyStoreUnavailableException e) {
                            // Allowed during a topology change: the caller does not run and retries.
                            told.get(i).add(owner + " unavailable (" + e.getCause() + ")");
                            unavailable.incrementAndGet();
                            unavailableOn.incrementAndGet(i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            racing.set(false);
            churning.get(2, TimeUnit.MINUTES);

            assertThat(topologyChanges.get())
                    .as("the third node joined and left during the race")
                    .isGreaterThanOrEqualTo(2);
            // Keys whose stored record is not the reported winner's: a claim of a caller that was told
            // it lost (or unavailable) was written over the winner's claim. Infinispan 16.1.4 does this
            // while the topology changes in every cache mode (docs/infinispan-store.md); the shipped
            // optimistic configuration keeps it rarest, and this bound catches a configuration or
            // store change that makes it common.
            List<String> overwritten = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                Optional<IdempotencyRecord> stored = a.read(k[i]);
                String w = winner.get(i);
                if (w != null) {
                    assertThat(stored).as("key %d; told: %s", i, told.get(i)).isPresent();
                }
                // Nobody told it won: a stored claim is only acceptable from a caller that was told
                // "unavailable" (it did not run, and the claim frees itself at lease end).
                boolean bad = w == null
                        ? stored.isPresent() && unavailableOn.get(i) == 0
                        : !stored.get().owner().equals(w);
                if (bad) {
                    overwritten.add("key " + i + ": stored " + stored.get().owner() + ", told " + told.get(i));
                }
            }
            System.out.println("topology changes: " + topologyChanges.get() + ", unavailable answers: "
                    + unavailable.get() + ", keys whose winner's claim was overwritten: " + overwritten.size()
                    + " " + overwritten);
            assertThat(doubleWins.get())
                    .as("keys for which two callers were told they won")
                    .isZero();
            assertThat(overwritten)
                    .as(
                            "keys whose winner's claim was overwritten by a loser's (at most %d of %d)",
                            MAX_OVERWRITTEN, keys)
                    .hasSizeLessThanOrEqualTo(MAX_OVERWRITTEN);
        } finally {
            racing.set(false);
            pool.shutdownNow();
            churn.shutdownNow();
            churn.awaitTermination(1, TimeUnit.MINUTES);
            b.close();
            a.close();
            quiet.close();
        }
    }
}
