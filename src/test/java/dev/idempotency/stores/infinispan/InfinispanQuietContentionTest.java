package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.infinispan.commons.CacheException;
import org.infinispan.commons.TimeoutException;
import org.infinispan.remoting.RemoteException;
import org.infinispan.transaction.WriteSkewException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Duplicates racing for new keys on two nodes of the shipped clustered configuration: the losers'
 * optimistic transactions fail the write-skew check (the store handles that), and nothing of it
 * reaches {@code java.util.logging} at INFO or above from {@code org.infinispan} or {@code
 * dev.idempotency}. Failures that are not a handled conflict still do.
 */
class InfinispanQuietContentionTest {

    private static final int PORT_A = TestServices.port(7841);
    private static final int PORT_B = TestServices.port(7842);
    private static final int KEYS = 150;
    private static final int CALLERS_PER_KEY = 6;
    private static final Duration LEASE = Duration.ofMinutes(5);

    private static InfinispanIdempotencyStore nodeA;
    private static InfinispanIdempotencyStore nodeB;

    @BeforeAll
    static void startCluster() {
        String hosts = "127.0.0.1[" + PORT_A + "],127.0.0.1[" + PORT_B + "]";
        String cluster = "idempotency-quiet-" + ProcessHandle.current().pid();
        nodeA = InfinispanClusterStoreTest.start(InfinispanClusterStoreTest.node(PORT_A, cluster, hosts));
        nodeB = InfinispanClusterStoreTest.start(InfinispanClusterStoreTest.node(PORT_B, cluster, hosts));
    }

    @AfterAll
    static void stopCluster() {
        if (nodeB != null) {
            nodeB.close();
        }
        if (nodeA != null) {
            nodeA.close();
        }
    }

    @Test
    void duplicatesRacingForNewKeysOnTwoNodesLogNothingAboveDebug() throws Exception {
        long droppedBefore = QuietWriteConflicts.dropped();
        String run = Long.toString(System.nanoTime(), 36);
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS_PER_KEY);
        try (Captured log = new Captured()) {
            for (int k = 0; k < KEYS; k++) {
                String key = run + "-" + k;
                CountDownLatch gate = new CountDownLatch(1);
                List<Future<Boolean>> callers = new ArrayList<>();
                for (int c = 0; c < CALLERS_PER_KEY; c++) {
                    InfinispanIdempotencyStore node = c % 2 == 0 ? nodeA : nodeB;
                    String owner = "owner-" + c;
                    callers.add(pool.submit(() -> {
                        assertThat(gate.await(30, TimeUnit.SECONDS)).isTrue();
                        ClaimResult r = node.claim(key, owner, "fp", LEASE);
                        if (r.claimed()) {
                            assertThat(node.complete(key, owner, new byte[] {1}, LEASE))
                                    .isTrue();
                        }
                        return r.claimed();
                    }));
                }
                gate.countDown();
                int winners = 0;
                for (Future<Boolean> f : callers) {
                    winners += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("winners of %s", key).isEqualTo(1);
            }
            assertThat(log.records())
                    .as("records at INFO or above from org.infinispan or dev.idempotency during the race")
                    .isEmpty();
        } finally {
            pool.shutdownNow();
        }
        // Otherwise the race above proved nothing: losers did roll back, and their reports were dropped.
        assertThat(QuietWriteConflicts.dropped() - droppedBefore)
                .as("Infinispan reports of handled write conflicts dropped during the race")
                .isPositive();
    }

    @Test
    void whatIsNotAHandledConflictStillReachesTheLog() {
        try (Captured log = new Captured()) {
            Logger.getLogger("org.infinispan.transaction.impl.TransactionCoordinator")
                    .log(
                            Level.SEVERE,
                            "ISPN000255: Error while processing prepare",
                            new CacheException(new TimeoutException("ISPN000299: Unable to acquire lock")));
            Logger.getLogger("org.infinispan.CLUSTER").info("ISPN000094: Received new cluster view");
            Logger.getLogger("org.infinispan.CLUSTER")
                    .log(Level.WARNING, "ISPN000071: Caught exception", new WriteSkewException("skew", "k"));
            Logger.getLogger("org.infinispan.interceptors.impl.InvocationContextInterceptor")
                    .log(
                            Level.SEVERE,
                            "ISPN000136: Error executing command",
                            new RemoteException("ISPN000217", new WriteSkewException("skew", "k")));
            assertThat(log.messages())
                    .containsExactly(
                            "ISPN000255: Error while processing prepare", "ISPN000094: Received new cluster view");
        }
    }

    /** Records at INFO and above from {@code org.infinispan} and {@code dev.idempotency}, as the server logs them. */
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
            if (isLoggable(r) && (name.startsWith("org.infinispan") || name.startsWith("dev.idempotency"))) {
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

        synchronized List<String> messages() {
            return records.stream().map(LogRecord::getMessage).toList();
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            root.removeHandler(this);
        }
    }
}
