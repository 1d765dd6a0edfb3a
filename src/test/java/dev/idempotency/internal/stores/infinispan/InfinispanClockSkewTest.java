package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A member whose clock runs 25 hours ahead, in a cluster of three: it stamps its commands with the
 * leader's clock, so it takes over no claim and no completed record early, and its purge deletes
 * nothing that is live on the leader's clock. Without the correction, each of these ran a call again
 * (the 24 h retention had ended on the skewed clock).
 */
class InfinispanClockSkewTest {

    private static final Duration SKEW = Duration.ofHours(25);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Duration TTL = Duration.ofHours(24);
    private static final List<Integer> PORTS =
            List.of(TestServices.port(7740), TestServices.port(7741), TestServices.port(7742));

    private static InfinispanRaftStore a;
    private static InfinispanRaftStore b;
    private static InfinispanRaftStore skewed;

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes("clock-skew-test", PORTS, Map.of());
        a = cluster.start(PORTS.get(0));
        b = cluster.start(PORTS.get(1));
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), a, b);
        skewed = cluster.start(PORTS.get(2), new Properties(), Clock.offset(Clock.systemUTC(), SKEW));
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), a, b, skewed);
        assertThat(skewed.leader())
                .as("the leader, whose clock is the cluster's")
                .isNotEqualTo(skewed.raftId());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (skewed.leaderClockOffset() == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(skewed.leaderClockOffset())
                .as("the skewed member's measured offset from the leader's clock")
                .isNotNull()
                .isBetween(SKEW.negated().minusSeconds(2), SKEW.negated().plusSeconds(2));
    }

    @AfterAll
    static void stopCluster() {
        for (InfinispanRaftStore n : new InfinispanRaftStore[] {skewed, b, a}) {
            if (n != null) {
                n.close();
            }
        }
    }

    private static String key(String name) {
        return name + "-" + UUID.randomUUID();
    }

    @Test
    void membersWhoseClocksAgreeKeepTheirOwn() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while ((a.leaderClockOffset() == null || b.leaderClockOffset() == null) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(a.leaderClockOffset())
                .as("a's offset: within the tolerance, none")
                .isEqualTo(Duration.ZERO);
        assertThat(b.leaderClockOffset())
                .as("b's offset: within the tolerance, none")
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void aRunningClaimIsNotTakenOverByTheSkewedMember() {
        String k = key("running");
        assertThat(a.claim(k, "owner-a", "fp", LEASE).claimed()).isTrue();
        ClaimResult duplicate = skewed.claim(k, "owner-skewed", "fp", LEASE);
        assertThat(duplicate.claimed()).as("the skewed member's duplicate").isFalse();
        assertThat(duplicate.record().owner()).isEqualTo("owner-a");
    }

    @Test
    void aCompletedRecordReplaysOnTheSkewedMember() {
        String k = key("completed");
        assertThat(a.claim(k, "owner-a", "fp", LEASE).claimed()).isTrue();
        assertThat(a.complete(k, "owner-a", new byte[] {7}, TTL)).isTrue();
        ClaimResult duplicate = skewed.claim(k, "owner-skewed", "fp", LEASE);
        assertThat(duplicate.claimed())
                .as("the skewed member's duplicate runs nothing")
                .isFalse();
        assertThat(duplicate.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(duplicate.record().outcome()).containsExactly(7);
    }

    @Test
    void theSkewedMembersPurgeDeletesNothingLive() throws InterruptedException {
        String k = key("purge");
        assertThat(b.claim(k, "owner-b", "fp", LEASE).claimed()).isTrue();
        assertThat(b.complete(k, "owner-b", new byte[] {9}, TTL)).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while ((skewed.localCopy(k) == null || skewed.localCopy(k).status() != RecordStatus.COMPLETED)
                && System.nanoTime() < deadline) {
            Thread.sleep(20); // a follower applies a commit with the leader's next append or heartbeat
        }
        assertThat(skewed.localCopy(k))
                .as("the skewed member's own copy, which its purge looks at")
                .isNotNull();
        skewed.purgeExpired(1_000);
        assertThat(a.read(k))
                .as("the completed record after the skewed member's purge")
                .isPresent();
    }
}
