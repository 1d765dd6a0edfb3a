package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The member whose clock runs ahead becomes the RAFT leader of three (issue 50): the leader's clock
 * must not become the cluster's. Before it leads, a key is completed (24 h retention) and another is
 * claimed (60 s lease, renewed every 20 s by its owner). Then the leader stops, the skewed member wins
 * the election, the old leader comes back, and a little more than 15 s after the claim (the moment at
 * which a clock 45 s ahead ends a 60 s lease that the renewal at 20 s has not extended yet), and once
 * more after the renewal: the members with good clocks replay the completed key and refuse the running
 * one, the skewed member refuses to stamp anything (503), and no purge deletes either record.
 *
 * <p>Before the change every member stamped its commands with the leader's clock within 5 s of the
 * election: with 25 h, the completed key was claimed again and the running claim taken over, and the
 * skewed leader's purge deleted both; with 45 s, the running claim was taken over.
 */
class InfinispanSkewedLeaderTest {

    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Duration RENEW_EVERY = Duration.ofSeconds(20);
    private static final Duration TTL = Duration.ofHours(24);

    /** Past this, a claim stamped 45 s ahead finds the lease ended; the renewal comes at {@link #RENEW_EVERY}. */
    private static final Duration BEFORE_RENEWAL = Duration.ofSeconds(16);

    /** The logger of the clock's WARNING (ClusterClock), named so that this test compiles without it. */
    private static final String CLOCK_LOGGER = "dev.idempotency.internal.stores.infinispan.ClusterClock";

    @Test
    void aLeader25HoursAheadMovesNoExpiry() throws Exception {
        run(
                "skewed-leader-25h",
                Duration.ofHours(25),
                List.of(TestServices.port(7960), TestServices.port(7961), TestServices.port(7962)));
    }

    @Test
    void aLeader45SecondsAheadTakesNoRunningClaimOver() throws Exception {
        run(
                "skewed-leader-45s",
                Duration.ofSeconds(45),
                List.of(TestServices.port(7963), TestServices.port(7964), TestServices.port(7965)));
    }

    private static void run(String name, Duration skew, List<Integer> ports) throws Exception {
        List<InfinispanRaftStore> open = new ArrayList<>();
        ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor();
        try (InfinispanQuietContentionTest.Captured log = new InfinispanQuietContentionTest.Captured()) {
            ClusterNodes cluster = new ClusterNodes(name, ports, Map.of());
            InfinispanRaftStore first = started(open, cluster.start(ports.get(0)));
            InfinispanRaftStore second = started(open, cluster.start(ports.get(1)));
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), first, second);
            InfinispanRaftStore skewed =
                    started(open, cluster.start(ports.get(2), new Properties(), Clock.offset(Clock.systemUTC(), skew)));
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), first, second, skewed);

            // The election picks, of the members with the longest log, the first in the view: restarting
            // the follower puts it after the skewed member, which then wins once the leader stops.
            InfinispanRaftStore leader = first.raftId().equals(first.leader()) ? first : second;
            InfinispanRaftStore follower = leader == first ? second : first;
            assertThat(leader.raftId()).as("the first leader").isEqualTo(skewed.leader());
            int leaderPort = leader == first ? ports.get(0) : ports.get(1);
            int followerPort = leader == first ? ports.get(1) : ports.get(0);
            stop(open, follower);
            follower = started(open, cluster.start(followerPort));
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), leader, follower, skewed);

            String done = "done-" + name;
            assertThat(follower.claim(done, "owner-done", "fp", LEASE).claimed())
                    .isTrue();
            assertThat(follower.complete(done, "owner-done", new byte[] {7}, TTL))
                    .isTrue();
            String running = "running-" + name;
            long claimedAt = System.nanoTime();
            assertThat(follower.claim(running, "owner-running", "fp", LEASE).claimed())
                    .isTrue();
            awaitApplied(skewed, running, Duration.ofSeconds(30)); // so that its log is as long as any

            // The owner's keep-alive, from the follower: every 20 s, again after a second while refused.
            InfinispanRaftStore owner = follower;
            List<String> renewals = new CopyOnWriteArrayList<>();
            keepAlive.schedule(
                    new Runnable() {
                        @Override
                        public void run() {
                            try {
                                renewals.add(String.valueOf(owner.renew(running, "owner-running", LEASE)));
                                keepAlive.schedule(this, RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                            } catch (IdempotencyStoreUnavailableException e) {
                                renewals.add("refused");
                                keepAlive.schedule(this, 1, TimeUnit.SECONDS);
                            }
                        }
                    },
                    RENEW_EVERY.toNanos() - (System.nanoTime() - claimedAt),
                    TimeUnit.NANOSECONDS);

            stop(open, leader);
            awaitLeaderIs(skewed.raftId(), Duration.ofSeconds(30), follower, skewed);
            InfinispanRaftStore restarted = started(open, cluster.start(leaderPort));
            awaitLeaderIs(skewed.raftId(), Duration.ofSeconds(60), follower, skewed, restarted);

            sleepUntil(claimedAt, BEFORE_RENEWAL);
            assertThat(Duration.ofNanos(System.nanoTime() - claimedAt))
                    .as("time from the claim to the first check, which must come before the renewal")
                    .isLessThan(RENEW_EVERY.minusSeconds(1));
            duplicatesFindBoth(done, running, skewed, follower, restarted);

            sleepUntil(claimedAt, RENEW_EVERY.plusSeconds(2));
            duplicatesFindBoth(done, running, skewed, follower, restarted);

            for (InfinispanRaftStore s : List.of(skewed, follower, restarted)) {
                s.purgeExpired(1_000);
            }
            assertThat(follower.read(done))
                    .as("the completed record after every member's purge")
                    .isPresent();
            assertThat(restarted.read(running))
                    .as("the running claim after every member's purge")
                    .hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("owner-running"));
            assertThat(renewals)
                    .as("the owner's renewals (\"refused\": no stamp yet, retried)")
                    .contains("true")
                    .doesNotContain("false");

            List<String> warnings = log.records().stream()
                    .filter(r -> r.startsWith("WARNING " + CLOCK_LOGGER))
                    .toList();
            List<String> skewWarnings = warnings.stream()
                    .filter(r -> r.contains("is PT") && r.contains("of the median"))
                    .toList();
            assertThat(skewWarnings)
                    .as("the WARNINGs that name a member's clock off the median (all WARNINGs: %s)", warnings)
                    .hasSize(1)
                    .allSatisfy(w -> assertThat(w)
                            .contains("member '" + skewed.raftId() + "'")
                            .contains("ahead of")
                            .contains("1000 ms"));
            Matcher measured = Pattern.compile("is (PT\\S+) ahead of").matcher(skewWarnings.get(0));
            assertThat(measured.find()).isTrue();
            assertThat(Duration.parse(measured.group(1)))
                    .as("the measured skew")
                    .isBetween(skew.minusSeconds(2), skew.plusSeconds(2));
        } finally {
            keepAlive.shutdownNow();
            for (InfinispanRaftStore s : open) {
                s.close();
            }
        }
    }

    /**
     * A duplicate of each key from each member: the members whose clocks agree replay the completed key
     * and find the running one still its owner's; the skewed member refuses both. A good member that has
     * not measured the restarted one yet may refuse as well: asked again, for at most 10 s.
     */
    private static void duplicatesFindBoth(
            String done, String running, InfinispanRaftStore skewed, InfinispanRaftStore... good)
            throws InterruptedException {
        for (InfinispanRaftStore s : good) {
            ClaimResult replay = answered(s, done);
            assertThat(replay.claimed())
                    .as("a duplicate of the completed key on %s", s.raftId())
                    .isFalse();
            assertThat(replay.record().status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(replay.record().outcome()).containsExactly(7);
            ClaimResult duplicate = answered(s, running);
            assertThat(duplicate.claimed())
                    .as("a duplicate of the running claim on %s", s.raftId())
                    .isFalse();
            assertThat(duplicate.record().owner()).isEqualTo("owner-running");
        }
        for (String key : List.of(done, running)) {
            assertThatThrownBy(() -> skewed.claim(key, "owner-skewed", "fp", LEASE))
                    .as("a duplicate of %s on the skewed leader", key)
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("member '" + skewed.raftId() + "'");
        }
    }

    private static ClaimResult answered(InfinispanRaftStore s, String key) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return s.claim(key, "owner-duplicate-" + s.raftId(), "fp", LEASE);
            } catch (IdempotencyStoreUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(s.raftId() + " still refuses a duplicate of " + key + " after 10 s", e);
                }
                Thread.sleep(200);
            }
        }
    }

    private static InfinispanRaftStore started(List<InfinispanRaftStore> open, InfinispanRaftStore s) {
        open.add(s);
        return s;
    }

    private static void stop(List<InfinispanRaftStore> open, InfinispanRaftStore s) {
        open.remove(s);
        s.close();
    }

    private static void awaitApplied(InfinispanRaftStore s, String key, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            IdempotencyRecord r = s.localCopy(key);
            if (r != null) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(s.raftId() + " did not apply the claim of " + key + " within " + limit);
    }

    private static void awaitLeaderIs(String expected, Duration limit, InfinispanRaftStore... stores)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (Stream.of(stores).allMatch(s -> expected.equals(s.leader()) && s.hasLeader())) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("leader not " + expected + " within " + limit + ": "
                + Stream.of(stores)
                        .map(s -> s.raftId() + " follows " + s.leader())
                        .toList());
    }

    private static void sleepUntil(long since, Duration elapsed) throws InterruptedException {
        long left = since + elapsed.toNanos() - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
