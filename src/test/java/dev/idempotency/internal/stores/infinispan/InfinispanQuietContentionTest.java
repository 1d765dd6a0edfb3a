package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.Races;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Duplicates racing for new keys on the three members of a cluster on the shipped configuration:
 * exactly one caller of each key wins, and nothing of the race reaches {@code java.util.logging} at
 * INFO or above from {@code org.infinispan}, {@code org.jgroups} or {@code dev.idempotency}. In a
 * cluster a lost race is a RAFT command that the leader decided against, not a failure, so there is
 * nothing to report.
 */
class InfinispanQuietContentionTest {

    private static final List<Integer> PORTS =
            List.of(TestServices.port(7841), TestServices.port(7842), TestServices.port(7846));
    private static final int KEYS = 150;
    private static final int CALLERS_PER_KEY = 6;
    private static final Duration LEASE = Duration.ofMinutes(5);

    private static final InfinispanRaftStore[] nodes = new InfinispanRaftStore[PORTS.size()];

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes("idempotency-quiet", PORTS, Map.of());
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = cluster.start(PORTS.get(i));
        }
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), nodes);
    }

    @AfterAll
    static void stopCluster() {
        for (InfinispanRaftStore n : nodes) {
            if (n != null) {
                n.close();
            }
        }
    }

    @Test
    void duplicatesRacingForNewKeysOnThreeMembersLogNothingAboveDebug() throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        long claimsBefore = claimCommands();
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS_PER_KEY);
        try (Captured log = new Captured()) {
            for (int k = 0; k < KEYS; k++) {
                String key = run + "-" + k;
                Races gate = new Races(CALLERS_PER_KEY);
                List<Future<Boolean>> callers = new ArrayList<>();
                for (int c = 0; c < CALLERS_PER_KEY; c++) {
                    InfinispanRaftStore node = nodes[c % nodes.length];
                    String owner = "owner-" + c;
                    callers.add(pool.submit(() -> {
                        gate.await();
                        ClaimResult r = node.claim(key, owner, "fp", LEASE);
                        if (r.claimed()) {
                            assertThat(node.complete(key, owner, new byte[] {1}, LEASE))
                                    .isTrue();
                        }
                        return r.claimed();
                    }));
                }
                int winners = 0;
                for (Future<Boolean> f : callers) {
                    winners += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("winners of %s", key).isEqualTo(1);
            }
            assertThat(log.records())
                    .as("records at INFO or above from org.infinispan, org.jgroups or dev.idempotency during the race")
                    .isEmpty();
        } finally {
            pool.shutdownNow();
        }
        // Otherwise the race above proved nothing: callers did race, their claims reached the leader
        // as commands, and the leader decided every loser's against it.
        assertThat(claimCommands() - claimsBefore)
                .as("claim commands sent for %d keys with %d callers each", KEYS, CALLERS_PER_KEY)
                .isGreaterThan(KEYS + KEYS / 2);
    }

    private static long claimCommands() {
        long n = 0;
        for (InfinispanRaftStore s : nodes) {
            n += s.requestsSent("claim");
        }
        return n;
    }

    /** Records at INFO and above from Infinispan, JGroups and this library, as the server logs them. */
    static final class Captured extends Handler implements AutoCloseable {
        private final List<LogRecord> records = new ArrayList<>();
        private final Logger root = Logger.getLogger("");

        Captured() {
            setLevel(Level.INFO);
            root.addHandler(this);
        }

        @Override
        public synchronized void publish(LogRecord r) {
            String name = r.getLoggerName() == null ? "" : r.getLoggerName();
            if (isLoggable(r)
                    && (name.startsWith("org.infinispan")
                            || name.startsWith("org.jgroups")
                            || name.startsWith("dev.idempotency"))) {
                records.add(r);
            }
        }

        synchronized List<String> records() {
            List<String> out = new ArrayList<>();
            for (LogRecord r : records) {
                out.add(r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()
                        + (r.getThrown() == null ? "" : " (" + r.getThrown() + ")"));
            }
            return out;
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            root.removeHandler(this);
        }
    }
}
