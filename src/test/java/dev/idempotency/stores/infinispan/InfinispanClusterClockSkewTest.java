package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.core.Hashing;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three members of one RAFT cluster, one with its clock 25 hours ahead and one 25 hours behind. Each
 * command carries its sender's clock reading; the cluster's clock is the median of the members' beacon
 * readings (the honest member's here). The member ahead takes no running claim over, runs no completed
 * key again and purges nothing of the others; the member behind writes no retention that ends early.
 * Their claims are refused (503) until their clocks are fixed; a call they already run still completes,
 * on the cluster's clock.
 */
class InfinispanClusterClockSkewTest {

    private static final List<Integer> PORTS =
            List.of(TestServices.port(7850), TestServices.port(7851), TestServices.port(7852));
    private static final Duration SKEW = Duration.ofHours(25);
    private static final Duration TTL = Duration.ofHours(24);
    private static final Duration LEASE = Duration.ofMinutes(1);

    private static InfinispanClusterStore honest;
    private static InfinispanClusterStore ahead;
    private static InfinispanClusterStore behind;

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes("cluster-clock-skew-test", PORTS, Map.of());
        honest = cluster.start(PORTS.get(0), new Properties(), Clock.systemUTC());
        ahead = cluster.start(PORTS.get(1), new Properties(), Clock.offset(Clock.systemUTC(), SKEW));
        behind = cluster.start(PORTS.get(2), new Properties(), Clock.offset(Clock.systemUTC(), SKEW.negated()));
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), honest, ahead, behind);
        awaitClockCheck(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopCluster() {
        for (InfinispanClusterStore n : new InfinispanClusterStore[] {honest, ahead, behind}) {
            if (n != null) {
                n.close();
            }
        }
    }

    /** Until every member has applied the three members' beacons (a majority is enough for a clock). */
    private static void awaitClockCheck(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        InfinispanClusterStore[] all = {honest, ahead, behind};
        while (System.nanoTime() < deadline) {
            boolean done = true;
            for (InfinispanClusterStore n : all) {
                done &= n.clockChecked();
            }
            if (done) {
                // every member's first beacon: sent as soon as it knew a leader
                Thread.sleep(RecordSet.BEACON_PERIOD.toMillis() + 1_000);
                return;
            }
            Thread.sleep(20);
        }
        StringBuilder seen = new StringBuilder();
        for (InfinispanClusterStore n : all) {
            seen.append(n.raftId())
                    .append(" clock checked ")
                    .append(n.clockChecked())
                    .append("; ");
        }
        throw new AssertionError("the members did not hear each other's clocks within " + limit + ": " + seen);
    }

    private static String key(String name) {
        return Hashing.sha256Hex(name + "-" + System.nanoTime());
    }

    @Test
    void theMemberAheadTakesNoRunningClaimOver() {
        String running = key("running");
        assertThat(honest.claim(running, "first", "fp", LEASE).claimed()).isTrue();

        assertThatThrownBy(() -> ahead.claim(running, "second", "fp", LEASE))
                .as("a claim whose one-minute lease runs, taken over by the member 25 h ahead")
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("Synchronise its clock");
        assertThat(honest.read(running).orElseThrow().owner()).isEqualTo("first");
        assertThat(honest.complete(running, "first", new byte[] {1}, TTL))
                .as("the first member still completes its claim")
                .isTrue();
    }

    @Test
    void theMemberAheadRunsNoCompletedKeyAgain() {
        String completed = key("completed");
        assertThat(honest.claim(completed, "first", "fp", LEASE).claimed()).isTrue();
        assertThat(honest.complete(completed, "first", new byte[] {2}, TTL)).isTrue();

        assertThatThrownBy(() -> ahead.claim(completed, "second", "fp", LEASE))
                .as("the repeat, on the member 25 h ahead, of a key completed with a 24 h retention")
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        IdempotencyRecord r = honest.read(completed).orElseThrow();
        assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(r.owner()).isEqualTo("first");
    }

    @Test
    void theMemberAheadPurgesNothingOfTheOthers() {
        String completed = key("kept");
        assertThat(honest.claim(completed, "first", "fp", LEASE).claimed()).isTrue();
        assertThat(honest.complete(completed, "first", new byte[] {3}, TTL)).isTrue();

        assertThat(ahead.purgeExpired(10_000)).isZero();

        assertThat(honest.read(completed))
                .as("the completed record after a purge by the member 25 h ahead")
                .isPresent();
    }

    @Test
    void theMemberBehindClaimsNothing() {
        String k = key("behind");
        assertThatThrownBy(() -> behind.claim(k, "first", "fp", LEASE))
                .as("a claim of the member 25 h behind, whose lease would have ended a day ago")
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        assertThat(honest.read(k)).isEmpty();
        assertThat(honest.claim(k, "second", "fp", LEASE).claimed()).isTrue();
    }

    @Test
    void aSkewedMemberCompletesOnTheClustersClock() {
        for (InfinispanClusterStore skewed : new InfinispanClusterStore[] {ahead, behind}) {
            String k = key("owner-" + skewed.raftId());
            Instant before = Instant.now();
            // The claim of a call that began before this member's clock jumped.
            assertThat(honest.claim(k, "owner", "fp", LEASE).claimed()).isTrue();
            assertThat(skewed.renew(k, "owner", LEASE)).isTrue();
            assertThat(honest.read(k).orElseThrow().expiresAt())
                    .as("the lease renewed by %s", skewed.raftId())
                    .isBetween(
                            before.plus(LEASE).minusSeconds(60),
                            Instant.now().plus(LEASE).plusSeconds(1));
            assertThat(skewed.complete(k, "owner", new byte[] {4}, TTL)).isTrue();
            assertThat(honest.read(k).orElseThrow().expiresAt())
                    .as("the retention of a record completed by %s", skewed.raftId())
                    .isBetween(
                            before.plus(TTL).minusSeconds(60),
                            Instant.now().plus(TTL).plusSeconds(1));
        }
    }
}
