package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three members of one RAFT cluster, one with its clock 25 hours ahead and one 25 hours behind: the
 * member ahead takes over no running claim, replays a COMPLETED record within its 24-hour retention
 * instead of running it again, and purges nothing of the others; the member behind writes no expiry
 * that comes early. Each command carries its sender's instant, so without the cluster's clock
 * ({@link ClusterClock}) the member ahead decides all of these on its own clock.
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
        honest = cluster.start(PORTS.get(0), Clock.systemUTC());
        ahead = cluster.start(PORTS.get(1), Clock.offset(Clock.systemUTC(), SKEW));
        behind = cluster.start(PORTS.get(2), Clock.offset(Clock.systemUTC(), SKEW.negated()));
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

    private static void awaitClockCheck(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        InfinispanClusterStore[] all = {honest, ahead, behind};
        while (System.nanoTime() < deadline) {
            boolean done = true;
            for (InfinispanClusterStore n : all) {
                done &= n.visibleMembers() == all.length && n.clockVerified();
            }
            if (done) {
                return;
            }
            Thread.sleep(20);
        }
        StringBuilder seen = new StringBuilder();
        for (InfinispanClusterStore n : all) {
            seen.append(n.raftId())
                    .append(" sees ")
                    .append(n.visibleMembers())
                    .append(" members, clock checked ")
                    .append(n.clockVerified())
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

        assertThat(ahead.claim(running, "second", "fp", LEASE).claimed())
                .as("a claim whose one-minute lease runs, taken over by the member 25 h ahead")
                .isFalse();
        assertThat(honest.complete(running, "first", new byte[] {1}, TTL))
                .as("the first member still completes its claim")
                .isTrue();
    }

    @Test
    void theMemberAheadReplaysACompletedRecordWithinItsRetention() {
        String completed = key("completed");
        assertThat(honest.claim(completed, "first", "fp", LEASE).claimed()).isTrue();
        assertThat(honest.complete(completed, "first", new byte[] {2}, TTL)).isTrue();

        ClaimResult repeat = ahead.claim(completed, "second", "fp", LEASE);
        assertThat(repeat.claimed())
                .as("the repeat, on the member 25 h ahead, of a key completed with a 24 h retention runs again")
                .isFalse();
        assertThat(repeat.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(ahead.read(completed)).as("read on the member ahead").isPresent();
    }

    @Test
    void theMemberAheadPurgesNothingOfTheOthers() {
        String completed = key("kept");
        assertThat(honest.claim(completed, "first", "fp", LEASE).claimed()).isTrue();
        assertThat(honest.complete(completed, "first", new byte[] {3}, TTL)).isTrue();

        ahead.purgeExpired(10_000);

        assertThat(honest.read(completed))
                .as("the completed record after a purge by the member 25 h ahead")
                .isPresent();
    }

    @Test
    void theMemberBehindWritesNoExpiryThatComesEarly() {
        String completed = key("behind");
        Instant before = Instant.now();
        assertThat(behind.claim(completed, "first", "fp", LEASE).claimed()).isTrue();
        assertThat(behind.complete(completed, "first", new byte[] {4}, TTL)).isTrue();

        IdempotencyRecord r = honest.read(completed).orElseThrow();
        assertThat(r.expiresAt())
                .as("the retention of a record completed on the member 25 h behind, written with its clock")
                .isAfter(before.plus(TTL).minusSeconds(60));
        assertThat(honest.claim(completed, "second", "fp", LEASE).claimed())
                .as("its repeat on the honest member")
                .isFalse();
    }
}
