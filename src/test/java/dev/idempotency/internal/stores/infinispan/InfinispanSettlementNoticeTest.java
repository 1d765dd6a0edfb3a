package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.InProgressPolicy;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.ExceptionPolicy;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.RecordKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A three-member cluster in this JVM, an engine on each of two followers: a duplicate waiting on
 * follower B for a call running on follower A is woken when B applies A's completion (or release),
 * told by its store ({@code notifySettlements}), instead of at its next look at the store (every
 * 250 ms by then). Both are followers, so B learns of the commit only from the leader's notice of it
 * ({@link VerifyingRaft#promptCommits}); without that, at the next heartbeat, up to a second later.
 */
class InfinispanSettlementNoticeTest {

    static final List<Integer> PORTS =
            List.of(TestServices.port(7880), TestServices.port(7881), TestServices.port(7882));

    private static final OperationPolicy WAIT = new OperationPolicy(
            "op", Duration.ofHours(1), Duration.ofSeconds(30), InProgressPolicy.WAIT, ExceptionPolicy.DEFAULT, false);

    /** How long the owner runs while the duplicate waits: its looks are 250 ms apart by then. */
    private static final long HOLD_MILLIS = 1300;

    private static InfinispanRaftStore[] nodes;
    private static InfinispanRaftStore nodeA;
    private static InfinispanRaftStore nodeB;

    @BeforeAll
    static void startCluster() throws Exception {
        ClusterNodes cluster = new ClusterNodes("settlement-notice-test", PORTS, Map.of());
        nodes = new InfinispanRaftStore[PORTS.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = cluster.start(PORTS.get(i));
        }
        ClusterNodes.awaitLeader(Duration.ofSeconds(60), nodes);
        List<InfinispanRaftStore> followers =
                Stream.of(nodes).filter(n -> !n.raftId().equals(n.leader())).toList();
        assertThat(followers).as("members that do not lead").hasSize(2);
        nodeA = followers.get(0);
        nodeB = followers.get(1);
    }

    @AfterAll
    static void stopCluster() {
        if (nodes != null) {
            for (int i = nodes.length - 1; i >= 0; i--) {
                if (nodes[i] != null) {
                    nodes[i].close();
                }
            }
        }
    }

    @Test
    void aWaiterOnAnotherMemberIsWokenWhenItsMemberAppliesTheCompletion() throws Exception {
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(nodeB);
        List<Long> latencies = new ArrayList<>();
        List<Long> looks = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "notice-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            long before = looksOfB();
            CompletableFuture<Long> replayedAt = CompletableFuture.supplyAsync(() -> {
                Admission replay = b.begin(WAIT, key, "fp");
                long at = System.nanoTime();
                assertThat(replay).isInstanceOf(Admission.Replay.class);
                return at;
            });
            Thread.sleep(HOLD_MILLIS);
            looks.add(looksOfB() - before);
            long completed = System.nanoTime();
            assertThat(a.complete(owned, new byte[] {7})).isTrue();
            latencies.add(TimeUnit.NANOSECONDS.toMillis(replayedAt.get(30, TimeUnit.SECONDS) - completed));
        }
        assertThat(latencies.stream().sorted().toList().get(2))
                .as(
                        "median ms from the completion on %s to the replay on %s (waking at its next look: about"
                                + " 230); all: %s",
                        nodeA.raftId(), nodeB.raftId(), latencies)
                .isLessThan(50);
        assertThat(looks)
                .as("B's requests to the leader in %d ms of waiting (polling every 50 ms made about 30)", HOLD_MILLIS)
                .allSatisfy(n -> assertThat(n).isBetween(1L, 14L));
    }

    @Test
    void aReleaseOnAnotherMemberWakesTheWaiterWhichThenOwnsTheKey() throws Exception {
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(nodeB);
        List<Long> latencies = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "released-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            CompletableFuture<Admission> next = CompletableFuture.supplyAsync(() -> b.begin(WAIT, key, "fp"));
            Thread.sleep(HOLD_MILLIS);
            long released = System.nanoTime();
            assertThat(a.release(owned)).isTrue();
            assertThat(next.get(30, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
            latencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released));
        }
        assertThat(latencies.stream().sorted().toList().get(2))
                .as(
                        "median ms from the release on %s to %s owning the key; all: %s",
                        nodeA.raftId(), nodeB.raftId(), latencies)
                .isLessThan(50);
    }

    /** B's requests to the leader: what its waiter's looks at a key in progress cost. */
    private static long looksOfB() {
        return nodeB.requestsSent("read") + nodeB.requestsSent("claim");
    }
}
