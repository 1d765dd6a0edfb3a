package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster whose records reach {@code idempotency.infinispan.max-entries}: a new key is refused with
 * 503 on every member, replays and duplicates are still answered, nothing live is dropped, and once
 * records expire a claim purges them and gets room.
 */
class InfinispanClusterCapacityTest {

    private static final List<Integer> PORTS =
            List.of(TestServices.port(7773), TestServices.port(7774), TestServices.port(7775));
    private static final Duration LEASE = Duration.ofMinutes(1);

    private static final List<InfinispanRaftStore> members = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes(
                "capacity-test",
                PORTS,
                Map.of(InfinispanStoreSettings.MAX_ENTRIES, "3", InfinispanStoreSettings.CLAIM_GRACE, "PT0.2S"));
        for (int port : PORTS) {
            members.add(cluster.start(port));
        }
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), members.toArray(InfinispanRaftStore[]::new));
    }

    @AfterAll
    static void stopCluster() {
        members.forEach(InfinispanRaftStore::close);
    }

    @Test
    void aFullClusterRefusesNewKeysServesTheRestAndMakesRoomFromWhatExpired() throws Exception {
        InfinispanRaftStore a = members.get(0);
        InfinispanRaftStore b = members.get(1);
        String running = "running-" + UUID.randomUUID();
        String done = "done-" + UUID.randomUUID();
        String shortLived = "short-" + UUID.randomUUID();
        assertThat(a.claim(running, "a1", "fp", LEASE).claimed()).isTrue();
        assertThat(a.claim(done, "a2", "fp", LEASE).claimed()).isTrue();
        assertThat(a.complete(done, "a2", new byte[] {7}, Duration.ofHours(24))).isTrue();
        assertThat(a.claim(shortLived, "a3", "fp", LEASE).claimed()).isTrue();
        assertThat(a.complete(shortLived, "a3", new byte[] {8}, Duration.ofMillis(500)))
                .isTrue();
        long live = System.nanoTime();

        String fresh = "fresh-" + UUID.randomUUID();
        assertThatThrownBy(() -> b.claim(fresh, "b1", "fp", LEASE))
                .as("a fourth key while three records are live")
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("is full")
                .hasMessageContaining(InfinispanStoreSettings.MAX_ENTRIES + "=3")
                .hasMessageContaining("did not run");
        ClaimResult replay = b.claim(done, "b2", "fp", LEASE);
        assertThat(replay.claimed()).isFalse();
        assertThat(replay.record().outcome()).as("a replay while full").containsExactly(7);
        assertThat(b.claim(running, "b3", "fp", LEASE).claimed())
                .as("a duplicate of a running call while full")
                .isFalse();

        // Once the short-lived record's retention ends, a refused claim purges it and takes its room.
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        ClaimResult claimed = null;
        List<String> seen = new ArrayList<>();
        while (claimed == null && System.nanoTime() < deadline) {
            try {
                claimed = b.claim(fresh, "b1", "fp", LEASE);
            } catch (IdempotencyStoreUnavailableException e) {
                seen.add((System.nanoTime() - live) / 1_000_000 + " ms: " + e.getMessage());
                Thread.sleep(200);
            }
        }
        assertThat(claimed)
                .as("a claim after the record expired; refusals seen: %s", seen)
                .isNotNull();
        assertThat(claimed.claimed()).isTrue();
        long tookMillis = (System.nanoTime() - live) / 1_000_000;
        assertThat(tookMillis)
                .as("room within the retention (500 ms) and a purge interval (1 s), with margin; refusals: %s", seen)
                .isLessThan(5_000);
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (members.stream().anyMatch(m -> m.localCopy(shortLived) != null || m.localSize() != 3)
                && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        for (InfinispanRaftStore m : members) {
            assertThat(m.localCopy(shortLived)).as("purged on %s", m.raftId()).isNull();
            assertThat(m.localCopy(running))
                    .as("the running claim on %s", m.raftId())
                    .isNotNull();
            assertThat(m.localCopy(done))
                    .as("the completed record on %s", m.raftId())
                    .isNotNull();
            assertThat(m.localSize()).as("records on %s", m.raftId()).isEqualTo(3);
        }
    }
}
