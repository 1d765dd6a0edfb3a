package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.RecordStatus;
import dev.idempotency.spi.StoreKeys;
import dev.idempotency.spi.ThreadTransactions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store contract on a three-member cluster inside this JVM: three cache managers started from the
 * shipped clustered configuration, JGroups TCP over 127.0.0.1, records in their RAFT group. Every
 * claim runs on one member and every read, complete and release on another, so each case crosses the
 * cluster; in the claim race, the threads claim through all three.
 */
class InfinispanRaftStoreTest extends IdempotencyStoreContract {

    static final List<Integer> PORTS =
            List.of(TestServices.port(7810), TestServices.port(7811), TestServices.port(7815));

    private static InfinispanRaftStore[] nodes;

    /** The callers' transactions of the joined cases, where the members look the JTA registry up. */
    private static final ThreadTransactions TRANSACTIONS = new ThreadTransactions();

    @BeforeAll
    static void startCluster() throws Exception {
        ThreadTransactions.bind(StoreKeys.DEFAULT_TRANSACTION_REGISTRY, TRANSACTIONS);
        ClusterNodes cluster = new ClusterNodes("cluster-store-test", PORTS, Map.of());
        nodes = new InfinispanRaftStore[PORTS.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = cluster.start(PORTS.get(i));
        }
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), nodes);
    }

    @AfterAll
    static void stopCluster() {
        ThreadTransactions.unbindAll();
        if (nodes != null) {
            for (InfinispanRaftStore n : nodes) {
                if (n != null) {
                    n.close();
                }
            }
        }
    }

    /** Claims on one member, everything else on the next one; racing threads spread over all three. */
    private static final IdempotencyStore ACROSS = new IdempotencyStore() {
        private int claimer() {
            return (int) (Thread.currentThread().getId() % nodes.length);
        }

        private InfinispanRaftStore other() {
            return nodes[(claimer() + 1) % nodes.length];
        }

        @Override
        public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
            return nodes[claimer()].claim(key, owner, fingerprint, lease);
        }

        @Override
        public Optional<IdempotencyRecord> read(String key) {
            return other().read(key);
        }

        @Override
        public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
            return other().complete(key, owner, outcome, ttl);
        }

        @Override
        public boolean release(String key, String owner) {
            return other().release(key, owner);
        }

        @Override
        public ClaimResult claim(
                GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
            return nodes[claimer()].claim(operation, key, owner, fingerprint, lease);
        }

        @Override
        public boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
            return other().complete(operation, key, owner, outcome, ttl);
        }

        @Override
        public boolean release(GuardedOperation operation, String key, String owner) {
            return other().release(operation, key, owner);
        }

        @Override
        public boolean canJoinCallerTransaction() {
            return other().canJoinCallerTransaction();
        }

        @Override
        public boolean renew(String key, String owner, Duration lease) {
            return other().renew(key, owner, lease);
        }

        @Override
        public boolean deleteCompleted(String key, String owner) {
            return other().deleteCompleted(key, owner);
        }

        @Override
        public int purgeExpired(int max) {
            return other().purgeExpired(max);
        }
    };

    @Override
    protected IdempotencyStore store() {
        return ACROSS;
    }

    @Override
    protected CallerTransaction callerTransaction() {
        return TRANSACTIONS;
    }

    @Override
    protected int raceThreads() {
        return 16;
    }

    @Override
    protected int raceKeys() {
        return 300;
    }

    @Test
    void theThreeMembersFormOneRaftGroupOnTheShippedConfiguration() {
        for (InfinispanRaftStore n : nodes) {
            assertThat(n.visibleMembers()).isEqualTo(3);
            assertThat(n.members())
                    .containsExactlyInAnyOrder(
                            "127.0.0.1:" + PORTS.get(0), "127.0.0.1:" + PORTS.get(1), "127.0.0.1:" + PORTS.get(2));
            assertThat(n.hasLeader()).isTrue();
        }
        assertThat(List.of(nodes[0].raftId(), nodes[1].raftId(), nodes[2].raftId()))
                .containsExactlyInAnyOrderElementsOf(nodes[0].members());
    }

    /**
     * A process that takes the place of a member still in the view (its predecessor killed and not yet
     * excluded) is refused by the cluster (no two members with one RAFT id); it keeps joining, and joins
     * once its predecessor is gone, with the log it left.
     */
    @Test
    void aMemberRestartedBeforeTheClusterDroppedItsPredecessorJoinsOnceItIsGone() throws Exception {
        String k = key();
        assertThat(nodes[2].claim(k, "before", "fp", LONG).claimed()).isTrue();
        ClusterNodes same = new ClusterNodes("cluster-store-test", PORTS, Map.of(), false);
        // The successor binds another port (the predecessor still holds its own in this JVM) under the
        // predecessor's name, as a restarted process of that member would.
        Properties sameName = new Properties();
        sameName.setProperty(InfinispanStores.NODE_NAME, nodes[2].raftId());
        ExecutorService starter = Executors.newSingleThreadExecutor();
        try {
            Future<InfinispanRaftStore> successor = starter.submit(() -> same.start(TestServices.port(7816), sameName));
            Thread.sleep(3000);
            assertThat(successor.isDone())
                    .as("a second process with a member's RAFT id joined while the member was in the view")
                    .isFalse();
            nodes[2].close();
            nodes[2] = successor.get(90, TimeUnit.SECONDS);
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), nodes);
            assertThat(nodes[2].read(k).orElseThrow().owner()).isEqualTo("before");
            assertThat(nodes[2].claim(k, "after", "fp", LONG).claimed()).isFalse();
        } finally {
            starter.shutdownNow();
        }
    }

    @Test
    void aClaimOnOneMemberIsCompletedOnAnotherAndReplayedOnTheThird() {
        String k = key();
        assertThat(nodes[0].claim(k, "owner-a", "fp", LONG).claimed()).isTrue();
        assertThat(nodes[1].claim(k, "owner-b", "fp", LONG).claimed()).isFalse();
        byte[] outcome = "{\"t\":\"value\",\"v\":42}".getBytes(StandardCharsets.UTF_8);
        assertThat(nodes[1].complete(k, "owner-a", outcome, LONG)).isTrue();
        ClaimResult replay = nodes[2].claim(k, "owner-c", "fp", LONG);
        assertThat(replay.claimed()).isFalse();
        assertThat(replay.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(replay.record().outcome()).isEqualTo(outcome);
    }

    @Test
    void everyMemberHoldsACopyOfEveryRecord() throws Exception {
        String k = key();
        nodes[0].claim(k, "o", "fp", LONG);
        nodes[1].complete(k, "o", new byte[] {7}, LONG);
        // A follower applies a command once it learns that a majority stored it: soon after.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (InfinispanRaftStore n : nodes) {
            IdempotencyRecord copy = n.localCopy(k);
            while ((copy == null || copy.status() != RecordStatus.COMPLETED) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                copy = n.localCopy(k);
            }
            assertThat(copy)
                    .as("%s's copy of the record after 10 s", n.raftId())
                    .isNotNull();
            assertThat(copy.status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(copy.outcome()).containsExactly(7);
        }
    }
}
