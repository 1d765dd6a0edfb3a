package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
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
 * A member whose clock runs 25 hours ahead, in a cluster of three, as a follower: its clock agrees with
 * no majority, so it stamps no command (its claims are refused, 503) and its purge deletes nothing; the
 * two others agree and keep their own clocks. Stamped with its own clock, each of these ran a call
 * again (the 24 h retention had ended on the skewed clock). The skewed member as the leader: {@link
 * InfinispanSkewedLeaderTest}.
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
        awaitVerdict(skewed, ClusterClock.Verdict.SKEWED);
        assertThat(Duration.ofMillis(skewed.clockCheck().skewMillis()))
                .as("the skewed member's measured skew from the median of the clocks")
                .isBetween(SKEW.minusSeconds(2), SKEW.plusSeconds(2));
    }

    private static void awaitVerdict(InfinispanRaftStore s, ClusterClock.Verdict expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (s.clockCheck().verdict() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(s.clockCheck()).as("%s's clock", s.raftId()).returns(expected, ClusterClock.Check::verdict);
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
        awaitVerdict(a, ClusterClock.Verdict.AGREES);
        awaitVerdict(b, ClusterClock.Verdict.AGREES);
        assertThat(a.clockCheck().agreeing())
                .as("a's clock agrees with a's and b's")
                .isEqualTo(2);
        String k = key("agreeing");
        assertThat(b.claim(k, "owner-b", "fp", LEASE).claimed()).isTrue();
        ClaimResult duplicate = a.claim(k, "owner-a", "fp", LEASE);
        assertThat(duplicate.claimed()).isFalse();
        assertThat(duplicate.record().owner()).isEqualTo("owner-b");
    }

    @Test
    void theSkewedMemberRefusesToClaimARunningKey() {
        String k = key("running");
        assertThat(a.claim(k, "owner-a", "fp", LEASE).claimed()).isTrue();
        assertThatThrownBy(() -> skewed.claim(k, "owner-skewed", "fp", LEASE))
                .as("the skewed member's duplicate")
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageMatching("(?s).*member '" + skewed.raftId() + "' is PT2\\d+H.* ahead of .*1000 ms.*");
        assertThat(b.read(k)).hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("owner-a"));
    }

    @Test
    void theSkewedMemberRefusesToClaimACompletedKey() {
        String k = key("completed");
        assertThat(a.claim(k, "owner-a", "fp", LEASE).claimed()).isTrue();
        assertThat(a.complete(k, "owner-a", new byte[] {7}, TTL)).isTrue();
        assertThatThrownBy(() -> skewed.claim(k, "owner-skewed", "fp", LEASE))
                .as("the skewed member's duplicate runs nothing")
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        ClaimResult duplicate = b.claim(k, "owner-b", "fp", LEASE);
        assertThat(duplicate.claimed()).as("a good member's duplicate").isFalse();
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
        assertThat(skewed.purgeExpired(1_000))
                .as("records the skewed member purged")
                .isZero();
        assertThat(a.read(k))
                .as("the completed record after the skewed member's purge")
                .isPresent();
    }
}
