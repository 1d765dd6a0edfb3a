package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.core.Settings;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.partitionhandling.PartitionHandling;
import org.infinispan.transaction.LockingMode;
import org.infinispan.util.concurrent.IsolationLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store contract on a two-node cluster inside this JVM: two cache managers started from the
 * shipped clustered configuration, talking JGroups TCP over 127.0.0.1. Every claim runs on one node
 * and every read, complete and release on the other, so each case crosses the cluster; in the claim
 * race, half of the threads claim through each node.
 */
class InfinispanClusterStoreTest extends IdempotencyStoreContract {

    static final int PORT_A = TestServices.port(7810);
    static final int PORT_B = TestServices.port(7811);

    private static InfinispanIdempotencyStore nodeA;
    private static InfinispanIdempotencyStore nodeB;

    static Properties node(int port, String cluster, String hosts) {
        Properties p = new Properties();
        p.setProperty("idempotency.infinispan.bind-port", String.valueOf(port));
        p.setProperty("idempotency.infinispan.initial-hosts", hosts);
        p.setProperty("idempotency.infinispan.cluster-name", cluster);
        return p;
    }

    static InfinispanIdempotencyStore start(Properties node) {
        return InfinispanStores.start(
                Settings.of(Map.of(
                        InfinispanStores.CONFIG,
                        InfinispanStores.CLUSTER_CONFIG,
                        InfinispanStores.CLAIM_GRACE,
                        "PT30S")),
                node,
                InfinispanClusterStoreTest.class.getClassLoader());
    }

    @BeforeAll
    static void startCluster() {
        String hosts = "127.0.0.1[" + PORT_A + "],127.0.0.1[" + PORT_B + "]";
        String cluster = "idempotency-test-" + ProcessHandle.current().pid();
        nodeA = start(node(PORT_A, cluster, hosts));
        nodeB = start(node(PORT_B, cluster, hosts));
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

    /** Claims on one node, everything else on the other; racing threads alternate nodes. */
    private static final IdempotencyStore ACROSS = new IdempotencyStore() {
        private InfinispanIdempotencyStore claimer() {
            return Thread.currentThread().getId() % 2 == 0 ? nodeA : nodeB;
        }

        private InfinispanIdempotencyStore other() {
            return claimer() == nodeA ? nodeB : nodeA;
        }

        @Override
        public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
            return claimer().claim(key, owner, fingerprint, lease);
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
    protected int raceThreads() {
        return 16;
    }

    @Override
    protected int raceKeys() {
        return 300;
    }

    @Test
    void bothNodesAreInOneClusterOnTheShippedConfiguration() {
        assertThat(nodeA.cache().getCacheManager().getMembers()).hasSize(2);
        assertThat(nodeB.cache().getCacheManager().getMembers())
                .containsExactlyInAnyOrderElementsOf(
                        nodeA.cache().getCacheManager().getMembers());
        Configuration c = nodeA.cache().getCacheConfiguration();
        assertThat(c.clustering().cacheMode()).isEqualTo(CacheMode.DIST_SYNC);
        assertThat(c.clustering().hash().numOwners()).isEqualTo(2);
        assertThat(c.transaction().transactionMode().isTransactional()).isTrue();
        // Optimistic + REPEATABLE_READ: the write-skew check that keeps conditional writes atomic while
        // the topology changes (InfinispanTopologyChangeTest).
        assertThat(c.transaction().lockingMode()).isEqualTo(LockingMode.OPTIMISTIC);
        assertThat(c.locking().isolationLevel()).isEqualTo(IsolationLevel.REPEATABLE_READ);
        assertThat(c.clustering().partitionHandling().whenSplit()).isEqualTo(PartitionHandling.DENY_READ_WRITES);
    }

    @Test
    void aClaimOnOneNodeIsCompletedOnTheOtherAndReplayedOnTheFirst() {
        String k = key();
        assertThat(nodeA.claim(k, "owner-a", "fp", LONG).claimed()).isTrue();
        assertThat(nodeB.claim(k, "owner-b", "fp", LONG).claimed()).isFalse();
        byte[] outcome = "{\"t\":\"value\",\"v\":42}".getBytes(StandardCharsets.UTF_8);
        assertThat(nodeB.complete(k, "owner-a", outcome, LONG)).isTrue();
        ClaimResult replay = nodeA.claim(k, "owner-c", "fp", LONG);
        assertThat(replay.claimed()).isFalse();
        assertThat(replay.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(replay.record().outcome()).isEqualTo(outcome);
    }

    @Test
    void bothNodesHoldACopyOfEveryRecord() {
        String k = key();
        nodeA.claim(k, "o", "fp", LONG);
        nodeB.complete(k, "o", new byte[] {7}, LONG);
        // Two owners on two nodes: each node's own data container has the record, so losing
        // either node loses nothing.
        for (InfinispanIdempotencyStore node : new InfinispanIdempotencyStore[] {nodeA, nodeB}) {
            IdempotencyRecord local = node.cache()
                    .getAdvancedCache()
                    .withFlags(
                            org.infinispan.context.Flag.CACHE_MODE_LOCAL, org.infinispan.context.Flag.SKIP_CACHE_LOAD)
                    .get(k);
            assertThat(local).isNotNull();
            assertThat(local.outcome()).containsExactly(7);
        }
    }
}
