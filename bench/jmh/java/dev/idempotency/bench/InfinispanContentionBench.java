package dev.idempotency.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.internal.stores.infinispan.ClusterNodes;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Liveness under contention: can racing duplicates keep a key's owner from completing? Three members
 * in this JVM on the shipped clustered configuration (JGroups on 127.0.0.1, records in their RAFT
 * group). For each key, an owner on one member claims it; then {@value #RACERS} threads spread over
 * the three members call {@code claim} on that key in a tight loop, and while they do, the owner
 * calls {@code complete}. Measured: the latency of that {@code complete}, and how many RAFT commands
 * it took (1, unless an answer was lost). Also counted: the commands the racers' claims caused (a
 * duplicate of a key in progress asks the leader with a read, which writes no log entry; a claim
 * sent before this member's copy had the owner's claim is one command that changes nothing). Keys
 * take turns in blocks: that contention; none (0 racing threads); and a control where the 16 threads
 * burn CPU without calling the store, which separates what the racers' calls cost from what sharing
 * the cores costs. All sides see the same machine.
 *
 * <p>Not part of the normal test run (the class name is not a test name); it still fails if an
 * owner's complete does not succeed or a racer is ever told it won. Run:
 *
 * <pre>
 * mvn -B test-compile surefire:test@default-test -Dtest=InfinispanContentionBench -Dbench.keys=500
 * </pre>
 *
 * <p>Figures: stdout (in {@code target/surefire-reports/*-output.txt}) and {@code
 * target/contention-bench.txt}.
 */
class InfinispanContentionBench {

    private static final int RACERS = 16;
    private static final int NODES = 3;
    private static final int BLOCK = 25;
    private static final Duration LEASE = Duration.ofMinutes(5);
    /** How long racers hammer a key before its owner completes (at least). */
    private static final Duration HAMMER_BEFORE_COMPLETE = Duration.ofMillis(5);

    /** The longest any wait of this class may take before it fails, saying what it saw. */
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(30);

    /** The racers' key in the control side: they burn CPU and call nothing. */
    private static final String BURN = "(burn)";

    /** Where burnt values end up, so that the busy work is observable. */
    static volatile long sink;

    /** Busy work of about a claim's length that the JIT cannot drop. */
    static long burn(long seed) {
        long x = seed;
        for (int i = 0; i < 200; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    /** One measured side (with or without racers). */
    static final class Side {
        final String name;
        final List<Long> completeNanos = new ArrayList<>();
        final List<Long> commands = new ArrayList<>();
        long racerClaims;
        long racerWrites;

        Side(String name) {
            this.name = name;
        }

        String row() {
            long[] l =
                    completeNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            long totalCommands = commands.stream().mapToLong(Long::longValue).sum();
            long maxCommands =
                    commands.stream().mapToLong(Long::longValue).max().orElse(0);
            return String.format(
                    Locale.ROOT,
                    "| %s | %d | %.2f | %.2f | %.2f | %d | %d | %,d | %d |",
                    name,
                    l.length,
                    ms(l[l.length / 2]),
                    ms(l[(int) Math.ceil(l.length * 0.99) - 1]),
                    ms(l[l.length - 1]),
                    totalCommands,
                    maxCommands,
                    racerClaims,
                    racerWrites);
        }

        double median() {
            long[] l =
                    completeNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            return ms(l[l.length / 2]);
        }

        private static double ms(long nanos) {
            return nanos / 1e6;
        }
    }

    /** Admission commands sent by all members: the owners' one per key, and the racers'. */
    private static long claimCommands(InfinispanRaftStore[] members) {
        return Arrays.stream(members).mapToLong(m -> m.requestsSent("claim")).sum();
    }

    @Test
    void racingDuplicatesDoNotKeepTheOwnerFromCompleting() throws Exception {
        int keys = Integer.getInteger("bench.keys", 500);
        int warmup = Integer.getInteger("bench.warmup", 50);
        List<Integer> ports = List.of(TestServices.port(7843), TestServices.port(7844), TestServices.port(7845));
        List<InfinispanRaftStore> nodes = new ArrayList<>();
        List<Thread> racers = new ArrayList<>();
        AtomicReference<String> hammered = new AtomicReference<>();
        AtomicLong racerClaims = new AtomicLong();
        AtomicLong racerWins = new AtomicLong();
        AtomicReference<Throwable> racerFailure = new AtomicReference<>();
        AtomicLong idle = new AtomicLong();
        try {
            ClusterNodes cluster = new ClusterNodes("idempotency-contention", ports, Map.of());
            for (int port : ports) {
                nodes.add(cluster.start(port));
            }
            ClusterNodes.awaitLeader(WAIT_LIMIT, nodes.toArray(InfinispanRaftStore[]::new));
            InfinispanRaftStore[] owners = nodes.toArray(InfinispanRaftStore[]::new);
            for (int r = 0; r < RACERS; r++) {
                InfinispanRaftStore store = owners[r % NODES];
                String me = "racer-" + r;
                Thread t = new Thread(
                        () -> {
                            long n = 0;
                            long burnt = 0;
                            while (true) {
                                String key;
                                // Idle racers wait on the monitor, so that they take no CPU from the
                                // side measured without contention.
                                synchronized (hammered) {
                                    key = hammered.get();
                                    if (key == null) {
                                        idle.incrementAndGet();
                                        hammered.notifyAll();
                                        try {
                                            while ((key = hammered.get()) == null) {
                                                hammered.wait();
                                            }
                                        } catch (InterruptedException e) {
                                            sink += burnt;
                                            return;
                                        } finally {
                                            idle.decrementAndGet();
                                        }
                                    }
                                }
                                if (BURN.equals(key)) {
                                    burnt = burn(burnt);
                                    continue;
                                }
                                try {
                                    ClaimResult c = store.claim(key, me + "-" + n++, "fp", LEASE);
                                    racerClaims.incrementAndGet();
                                    if (c.claimed()) {
                                        racerWins.incrementAndGet();
                                    }
                                } catch (RuntimeException e) {
                                    racerFailure.compareAndSet(null, e);
                                }
                            }
                        },
                        me);
                t.setDaemon(true);
                racers.add(t);
                t.start();
            }
            Side quiet = new Side("0 racing threads");
            Side contended = new Side(RACERS + " threads racing on the key, 3 nodes");
            Side burning = new Side(RACERS + " threads burning CPU, no store calls (control)");
            Side[] sides = {quiet, contended, burning};
            String run = Long.toString(System.nanoTime(), 36);
            int total = sides.length * (warmup + keys);
            for (int i = 0; i < total; i++) {
                boolean measured = i >= sides.length * warmup;
                Side side = sides[(i / BLOCK) % sides.length];
                boolean racing = side != quiet;
                String key = run + "-" + i;
                int on = i % NODES;
                String owner = "owner-" + i;
                assertThat(owners[on].claim(key, owner, "fp", LEASE).claimed())
                        .as("the owner claims new key %s", key)
                        .isTrue();
                long claimsBefore = racerClaims.get();
                long writesBefore = claimCommands(owners);
                if (racing) {
                    synchronized (hammered) {
                        hammered.set(side == burning ? BURN : key);
                        hammered.notifyAll();
                    }
                    long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
                    long hammerUntil = System.nanoTime() + HAMMER_BEFORE_COMPLETE.toNanos();
                    // Every racer is on the key (and has claimed it at least once between them all)
                    // before the owner completes: the completion runs into the contention.
                    while (idle.get() > 0
                            || (side == contended && racerClaims.get() - claimsBefore < RACERS)
                            || System.nanoTime() < hammerUntil) {
                        assertThat(System.nanoTime())
                                .as(
                                        "racers on %s: %d idle, %d claims",
                                        key, idle.get(), racerClaims.get() - claimsBefore)
                                .isLessThan(deadline);
                        LockSupport.parkNanos(100_000);
                    }
                }
                long commandsBeforeComplete = owners[on].requestsSent("complete");
                long t0 = System.nanoTime();
                boolean completed = owners[on].complete(key, owner, "done".getBytes(StandardCharsets.UTF_8), LEASE);
                long t1 = System.nanoTime();
                long attempts = owners[on].requestsSent("complete") - commandsBeforeComplete;
                assertThat(completed).as("the owner completes %s", key).isTrue();
                if (racing) {
                    long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
                    synchronized (hammered) {
                        hammered.set(null);
                        while (idle.get() < RACERS) {
                            long left = deadline - System.nanoTime();
                            assertThat(left)
                                    .as("racers leaving %s: %d idle", key, idle.get())
                                    .isPositive();
                            hammered.wait(Math.max(1, left / 1_000_000));
                        }
                    }
                }
                if (measured) {
                    side.completeNanos.add(t1 - t0);
                    side.commands.add(attempts);
                    side.racerClaims += racerClaims.get() - claimsBefore;
                    side.racerWrites += claimCommands(owners) - writesBefore;
                }
            }
            assertThat(racerFailure.get()).as("a racer's claim failed").isNull();
            assertThat(racerWins.get()).as("racers told they won a live key").isZero();

            String header = "| Side | completes | median ms | p99 ms | max ms | RAFT commands of complete (total) |"
                    + " (max per call) | racer claims | racer claim commands |\n|---|---|---|---|---|---|---|---|---|";
            String report = header + "\n" + quiet.row() + "\n" + contended.row() + "\n" + burning.row() + "\n"
                    + String.format(
                            Locale.ROOT,
                            "median ratios: racing / quiet %.2f, burning / quiet %.2f, racing / burning %.2f"
                                    + " (%d keys per side, blocks of %d keys in turn)",
                            contended.median() / quiet.median(),
                            burning.median() / quiet.median(),
                            contended.median() / burning.median(),
                            keys,
                            BLOCK);
            System.out.println(report);
            Files.writeString(Path.of("target", "contention-bench.txt"), report + "\n");
        } finally {
            synchronized (hammered) {
                hammered.set(null);
            }
            for (Thread t : racers) {
                t.interrupt();
            }
            for (Thread t : racers) {
                t.join(WAIT_LIMIT.toMillis());
            }
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        }
    }
}
