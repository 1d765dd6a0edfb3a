package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The cluster time of one member, fed beacons as RAFT applies them: live beacons that agree with the
 * time between their applications are trusted, a burst replayed from a log is not; the member keeps its
 * own clock unless the median of the trusted clocks is more than {@link ClusterClock#TOLERATED_SKEW}
 * away.
 */
class ClusterClockTest {

    private static final Instant T0 = Instant.parse("2026-11-28T05:00:00Z");
    private static final Set<String> ALL = Set.of("a", "b", "c");

    private final AtomicLong nanos = new AtomicLong();
    private Instant wall = T0;

    private ClusterClock clockOf(String self) {
        Clock c = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return wall;
            }
        };
        return new ClusterClock(c, self, nanos::get);
    }

    /** Both the wall clock and the monotonic clock move on. */
    private void elapse(Duration d) {
        wall = wall.plus(d);
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void aBurstReplayedFromTheLogIsNotTrusted() {
        ClusterClock a = clockOf("a");
        // Beacons of b and c sent hours ago, applied now in one burst.
        Instant old = T0.minus(Duration.ofHours(3));
        for (int i = 0; i < 5; i++) {
            a.observed("b", old.plusSeconds(15L * i));
            a.observed("c", old.plusSeconds(15L * i));
        }
        assertThat(a.verified(ALL)).isFalse();
        assertThat(a.now(ALL)).as("the member's own clock").isEqualTo(T0);
    }

    @Test
    void aMemberAheadTakesTheMedianOfTwoLiveHonestClocks() {
        wall = T0.plus(Duration.ofHours(25));
        ClusterClock ahead = clockOf("a");
        ahead.observed("b", T0);
        ahead.observed("c", T0);
        elapse(Duration.ofSeconds(15));
        ahead.observed("b", T0.plusSeconds(15));
        ahead.observed("c", T0.plusSeconds(15));
        elapse(Duration.ofSeconds(1));

        assertThat(ahead.verified(ALL)).isTrue();
        assertThat(ahead.now(ALL)).isEqualTo(T0.plusSeconds(16));
    }

    @Test
    void anHonestMemberKeepsItsOwnClockWithinTheToleratedSkew() {
        ClusterClock honest = clockOf("a");
        // b's beacons arrive 3 s late (a slow apply), c runs 25 h behind.
        Instant cBehind = T0.minus(Duration.ofHours(25));
        honest.observed("b", T0.minusSeconds(3));
        honest.observed("c", cBehind);
        elapse(Duration.ofSeconds(15));
        honest.observed("b", T0.plusSeconds(12));
        honest.observed("c", cBehind.plusSeconds(15));

        assertThat(honest.verified(ALL)).isTrue();
        assertThat(honest.now(ALL)).as("its own clock, 3 s from the median").isEqualTo(T0.plusSeconds(15));
        assertThat(honest.now(Set.of("a", "b")))
                .as("with c gone, the lower of two clocks is still within the tolerance")
                .isEqualTo(T0.plusSeconds(15));
    }

    @Test
    void aMemberBehindTakesTheMedianSoItsExpiriesDoNotComeEarly() {
        wall = T0.minus(Duration.ofHours(25));
        ClusterClock behind = clockOf("c");
        behind.observed("a", T0);
        behind.observed("b", T0);
        elapse(Duration.ofSeconds(15));
        behind.observed("a", T0.plusSeconds(15));
        behind.observed("b", T0.plusSeconds(15));

        assertThat(behind.now(ALL)).isEqualTo(T0.plusSeconds(15));
    }
}
