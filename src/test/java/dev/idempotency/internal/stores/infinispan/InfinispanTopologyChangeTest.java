package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.Races;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * Claims while members join and leave (REFERENCE pitfall 13, ISPN-3422, ISPN-7140): racing claims
 * through two members of a three-member RAFT group while the third repeatedly starts (with the log it
 * kept) and stops. Each winner completes at once, as a fast operation would. For every key, at most
 * one claimer is told it won, and the stored record is the winner's COMPLETED record, read through
 * both members and in both members' own copies: a key reported won twice, or a winner whose outcome
 * was overwritten or lost, fails the test. A claimer may be told "unavailable" (the third member led
 * the group when it left, and a new leader was being elected); it does not run.
 *
 * <p>{@code -Dispn.topology.rounds=N} races N rounds of 400 fresh keys on the same churning cluster
 * (how the churn figures of a change are measured); CI runs one.
 */
class InfinispanTopologyChangeTest {

    private static final int ROUNDS = Integer.getInteger("ispn.topology.rounds", 1);

    @Test
    void claimsRacingThroughAJoinAndLeaveNeverHaveTwoWinnersNorLoseAWinnersOutcome() throws Exception {
        List<Integer> ports = List.of(TestServices.port(7812), TestServices.port(7813), TestServices.port(7814));
        ClusterNodes cluster = new ClusterNodes("idempotency-topology", ports, Map.of());
        InfinispanRaftStore a = cluster.start(ports.get(0));
        InfinispanRaftStore b = cluster.start(ports.get(1));
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), a, b);
        AtomicBoolean racing = new AtomicBoolean(true);
        AtomicInteger topologyChanges = new AtomicInteger();
        ExecutorService churn = Executors.newSingleThreadExecutor();
        int threads = 8;
        int keys = 400;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long started = System.nanoTime();
        try {
            Future<?> churning = churn.submit(() -> {
                while (racing.get()) {
                    InfinispanRaftStore c = cluster.start(ports.get(2));
                    topologyChanges.incrementAndGet();
                    c.close();
                    topologyChanges.incrementAndGet();
                }
                return null;
            });
            int raced = 0;
            int won = 0;
            int unavailable = 0;
            int completeFailures = 0;
            List<String> bad = new ArrayList<>();
            for (int round = 0; round < ROUNDS && bad.size() < 20; round++) {
                Round r = race(a, b, pool, threads, keys, "topology-" + System.nanoTime() + "-" + round);
                raced += keys;
                won += r.won();
                unavailable += r.unavailable();
                completeFailures += r.completeFailures();
                bad.addAll(r.bad());
                if (ROUNDS > 1) {
                    System.out.printf(
                            "round %d: %d keys raced, %d won, %d unavailable answers, %d bad, %d topology changes,"
                                    + " %d s%n",
                            round + 1,
                            raced,
                            won,
                            unavailable,
                            bad.size(),
                            topologyChanges.get(),
                            Duration.ofNanos(System.nanoTime() - started).toSeconds());
                }
            }
            racing.set(false);
            churning.get(2, TimeUnit.MINUTES);
            System.out.println("topology changes: " + topologyChanges.get() + ", keys raced: " + raced + ", won: "
                    + won + ", unavailable answers: " + unavailable + ", completes that failed: "
                    + completeFailures + ", bad keys: " + bad.size() + " " + bad);

            assertThat(topologyChanges.get())
                    .as("the third node joined and left during the race")
                    .isGreaterThanOrEqualTo(2);
            assertThat(bad)
                    .as("keys with two winners, or whose winner's outcome is not what both nodes store")
                    .isEmpty();
            assertThat(completeFailures)
                    .as("completes that threw after the winner ran")
                    .isZero();
            assertThat(won).as("keys somebody won").isGreaterThan(raced / 2);
        } finally {
            racing.set(false);
            pool.shutdownNow();
            churn.shutdownNow();
            churn.awaitTermination(1, TimeUnit.MINUTES);
            b.close();
            a.close();
        }
    }

    /** One round's counts, and a line per bad key. */
    private record Round(int won, int unavailable, int completeFailures, List<String> bad) {}

    private static Round race(
            InfinispanRaftStore a, InfinispanRaftStore b, ExecutorService pool, int threads, int keys, String prefix)
            throws Exception {
        String[] k = new String[keys];
        for (int i = 0; i < keys; i++) {
            k[i] = Hashing.sha256Hex(prefix + "-" + i);
        }
        AtomicReferenceArray<String> winner = new AtomicReferenceArray<>(keys);
        AtomicIntegerArray doubleWins = new AtomicIntegerArray(keys);
        AtomicInteger unavailable = new AtomicInteger();
        AtomicInteger completeFailures = new AtomicInteger();
        // What each claimer was told, per key, for the failure message: "racer-3 won", "racer-1
        // lost to racer-3", "racer-5 unavailable (cause)".
        List<Queue<String>> told = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            told.add(new ConcurrentLinkedQueue<>());
        }
        Races gate = new Races(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            InfinispanRaftStore node = t % 2 == 0 ? a : b;
            String owner = prefix + "-racer-" + t;
            futures.add(pool.submit(() -> {
                for (int i = 0; i < keys; i++) {
                    gate.await();
                    // Owner tokens are unique per call, as the engine makes them.
                    String call = owner + "-" + i;
                    try {
                        ClaimResult result = node.claim(k[i], call, "fp", Duration.ofMinutes(10));
                        if (result.claimed()) {
                            told.get(i).add(call + " won");
                            if (!winner.compareAndSet(i, null, call)) {
                                doubleWins.incrementAndGet(i);
                            }
                            // The operation "runs" and its outcome is stored at once.
                            try {
                                if (!node.complete(k[i], call, outcome(call), Duration.ofMinutes(10))) {
                                    told.get(i).add(call + " complete=false");
                                }
                            } catch (IdempotencyStoreUnavailableException e) {
                                told.get(i).add(call + " complete threw " + e.getMessage());
                                completeFailures.incrementAndGet();
                            }
                        } else {
                            told.get(i).add(call + " lost to " + result.record().owner());
                        }
                    } catch (IdempotencyStoreUnavailableException e) {
                        // Allowed during a topology change: the caller does not run and retries.
                        told.get(i).add(call + " unavailable");
                        unavailable.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(10, TimeUnit.MINUTES);
        }
        int won = 0;
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            String w = winner.get(i);
            if (doubleWins.get(i) > 0) {
                bad.add(prefix + " key " + i + ": two winners; told " + told.get(i));
                continue;
            }
            if (w == null) {
                continue; // every claimer was told "unavailable" or lost to such a claim: nobody ran
            }
            won++;
            for (InfinispanRaftStore node : List.of(a, b)) {
                Optional<IdempotencyRecord> stored = node.read(k[i]);
                if (!isOutcomeOf(stored.orElse(null), w)) {
                    bad.add(prefix + " key " + i + ": stored " + stored + " read through " + node.raftId() + "; told "
                            + told.get(i));
                }
                // The member's own copy: it applied every command the leader's read saw, or does soon.
                IdempotencyRecord copy = node.localCopy(k[i]);
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (!isOutcomeOf(copy, w) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                    copy = node.localCopy(k[i]);
                }
                if (!isOutcomeOf(copy, w)) {
                    bad.add(prefix + " key " + i + ": " + node.raftId() + "'s own copy is " + copy
                            + " 10 s after the read; told " + told.get(i));
                }
            }
        }
        return new Round(won, unavailable.get(), completeFailures.get(), bad);
    }

    private static boolean isOutcomeOf(IdempotencyRecord r, String winner) {
        return r != null
                && r.status() == RecordStatus.COMPLETED
                && r.owner().equals(winner)
                && Arrays.equals(r.outcome(), outcome(winner));
    }

    private static byte[] outcome(String owner) {
        return ("outcome of " + owner).getBytes(StandardCharsets.UTF_8);
    }
}
