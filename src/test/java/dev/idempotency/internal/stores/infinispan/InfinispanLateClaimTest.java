package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A claim is stamped when its member sends it, and its lease runs from there. When RAFT commits it
 * late, the lease is partly or wholly spent by the time its caller would run; a later claim from
 * another member, stamped after the lease's end, takes the key over, and both callers run. Two
 * members; member A's clock reads one lag at the next claim's stamp, as if that claim had waited that
 * long for its commit, and the true time afterwards.
 */
class InfinispanLateClaimTest {

    private static final Duration LEASE = Duration.ofSeconds(4);

    private static final List<Integer> PORTS = List.of(TestServices.port(7847), TestServices.port(7848));

    private static final LaggingClock CLOCK_A = new LaggingClock();

    private static InfinispanRaftStore a;
    private static InfinispanRaftStore b;

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes("late-claim-test", PORTS, Map.of());
        a = cluster.start(PORTS.get(0), new Properties(), CLOCK_A);
        b = cluster.start(PORTS.get(1));
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), a, b);
    }

    @AfterAll
    static void stopCluster() {
        for (InfinispanRaftStore n : new InfinispanRaftStore[] {a, b}) {
            if (n != null) {
                n.close();
            }
        }
    }

    @Test
    void aClaimThatCommitsAfterItsLeaseEndedDoesNotRunAndLetsTheNextClaimRunAlone() {
        String k = "late-" + UUID.randomUUID();
        CLOCK_A.lagNextRead(LEASE.plusSeconds(1));
        assertThatThrownBy(() -> a.claim(k, "owner-a", "fp", LEASE))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("did not run");
        assertThat(b.read(k)).as("the late claim was given back").isEmpty();
        ClaimResult next = b.claim(k, "owner-b", "fp", LEASE);
        assertThat(next.claimed()).isTrue();
        assertThat(next.replaced()).as("the next claim took nothing over").isNull();
    }

    @Test
    void aClaimThatCommitsWithLessThanHalfItsLeaseLeftDoesNotRun() {
        String k = "late-" + UUID.randomUUID();
        CLOCK_A.lagNextRead(LEASE.dividedBy(2).plusMillis(500));
        assertThatThrownBy(() -> a.claim(k, "owner-a", "fp", LEASE))
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        assertThat(b.read(k)).isEmpty();
    }

    @Test
    void aClaimThatCommitsWithMoreThanHalfItsLeaseLeftRuns() {
        String k = "late-" + UUID.randomUUID();
        CLOCK_A.lagNextRead(LEASE.dividedBy(4));
        ClaimResult claim = a.claim(k, "owner-a", "fp", LEASE);
        assertThat(claim.claimed()).isTrue();
        assertThat(b.claim(k, "owner-b", "fp", LEASE).claimed()).isFalse();
    }

    @Test
    void aShortLeaseOnAClusterAtItsNormalPaceRuns() {
        String k = "late-" + UUID.randomUUID();
        Duration lease = Duration.ofMillis(100);
        CLOCK_A.lagNextRead(Duration.ofMillis(200));
        assertThat(a.claim(k, "owner-a", "fp", lease).claimed())
                .as("a commit faster than %s is never refused", InfinispanRaftStore.LATE_COMMIT)
                .isTrue();
    }

    /**
     * The system clock, except that the next read after {@link #lagNextRead}, on the thread that called
     * it, is that much behind (the member's own clock measurement, on its own thread, reads true time).
     */
    static final class LaggingClock extends Clock {
        private final ThreadLocal<Duration> lag = ThreadLocal.withInitial(() -> Duration.ZERO);

        void lagNextRead(Duration d) {
            lag.set(d);
        }

        @Override
        public Instant instant() {
            Duration d = lag.get();
            lag.set(Duration.ZERO);
            return Instant.now().minus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
