package dev.idempotency.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.Races;
import dev.idempotency.toolkit.StoreNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Cluster locks on every real store, each used as two nodes. */
@Tag("services")
class ClusterLocksTest {

    private static final Duration MOST = Duration.ofMinutes(1);

    private static ClusterLocks on(StoreNodes store, int node) {
        return new ClusterLocks(store.node(node));
    }

    private static String name() {
        return "job-" + UUID.randomUUID();
    }

    /**
     * 8 threads on both nodes try the same lock at one instant, round after round, each on a fresh
     * lock window: exactly one takes it each round.
     */
    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void racingNodesHaveExactlyOneHolderPerWindow(StoreNodes store) throws Exception {
        int threads = 8;
        int rounds = store == StoreNodes.MEMORY ? 1000 : 150;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            names.add(name());
        }
        AtomicIntegerArray holders = new AtomicIntegerArray(rounds);
        Races.rounds(threads, rounds, t -> on(store, t), (node, t, r) -> {
            // atLeastFor keeps each window locked after its job, so a slow thread of this round
            // cannot take the lock again after the winner's quick job.
            Optional<ClusterLocks.Lock> lock = node.tryLock(names.get(r), MOST, MOST);
            if (lock.isPresent()) {
                holders.incrementAndGet(r);
                assertThat(lock.get().unlock()).isTrue();
            }
        });
        for (int r = 0; r < rounds; r++) {
            assertThat(holders.get(r)).as("holders in round %d", r).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void unlockFreesTheLockAtOnceWhenAtLeastForHasPassed(StoreNodes store) {
        String name = name();
        ClusterLocks.Lock lock = on(store, 0).tryLock(name, MOST, Duration.ZERO).orElseThrow();
        assertThat(on(store, 1).tryLock(name, MOST, Duration.ZERO)).isEmpty();
        assertThat(lock.unlock()).isTrue();
        ClusterLocks.Lock next = on(store, 1).tryLock(name, MOST, Duration.ZERO).orElseThrow();
        assertThat(next.unlock()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void aQuickJobKeepsTheWindowLockedForAtLeastFor(StoreNodes store) throws Exception {
        String name = name();
        long start = System.nanoTime();
        on(store, 0).tryLock(name, MOST, Duration.ofMillis(1500)).orElseThrow().unlock();
        assertThat(on(store, 1).tryLock(name, MOST, Duration.ZERO)).isEmpty();
        Optional<ClusterLocks.Lock> again = Optional.empty();
        for (int i = 0; i < 100 && again.isEmpty(); i++) {
            Thread.sleep(50);
            again = on(store, i).tryLock(name, MOST, Duration.ZERO);
        }
        long waitedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(again).isPresent();
        // Store and test clocks differ by a few ms at most; the window must not end early.
        assertThat(waitedMillis).isBetween(1400L, 3000L);
        again.get().unlock();
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.toolkit.StoreNodes#all")
    void aDeadHolderLosesTheLockAfterAtMostForAndCannotUnlockItsSuccessor(StoreNodes store) throws Exception {
        String name = name();
        ClusterLocks.Lock dead = on(store, 0)
                .tryLock(name, Duration.ofMillis(400), Duration.ZERO)
                .orElseThrow();
        assertThat(on(store, 1).tryLock(name, MOST, Duration.ZERO)).isEmpty();
        Thread.sleep(900);
        ClusterLocks.Lock successor =
                on(store, 1).tryLock(name, MOST, Duration.ZERO).orElseThrow();
        // The overrunning holder wakes up and unlocks: fenced by owner, it must not free the successor's lock.
        assertThat(dead.unlock()).isFalse();
        assertThat(on(store, 0).tryLock(name, MOST, Duration.ZERO)).isEmpty();
        assertThat(successor.unlock()).isTrue();
    }

    @Test
    void invalidDurationsAndNamesAreConfigurationErrors() {
        ClusterLocks locks = new ClusterLocks(StoreNodes.MEMORY.node(0));
        assertThatThrownBy(() -> locks.tryLock(" ", MOST, Duration.ZERO))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> locks.tryLock("j", Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("atMostFor");
        assertThatThrownBy(() -> locks.tryLock("j", MOST, MOST.plusSeconds(1)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("atLeastFor");
        assertThatThrownBy(() -> LockSettings.parse("@ClusterLock atMostFor", "10 minutes", false))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("PT10M");
    }

    @Test
    void eachAttemptIsCountedUnderTheLocksName() {
        java.util.Map<String, List<String>> seen = new java.util.concurrent.ConcurrentHashMap<>();
        ClusterLocks locks = new ClusterLocks(StoreNodes.MEMORY.node(0), System::nanoTime, name -> {
            dev.idempotency.internal.core.RecordedEvents recorded = new dev.idempotency.internal.core.RecordedEvents();
            seen.put(name, recorded.events);
            return recorded;
        });
        ClusterLocks.Lock held = locks.tryLock("nightly", MOST, Duration.ZERO).orElseThrow();
        assertThat(locks.tryLock("nightly", MOST, Duration.ZERO)).isEmpty();
        assertThat(held.unlock()).isTrue();
        assertThat(locks.tryLock("nightly", MOST, Duration.ZERO)).isPresent();
        assertThat(seen).containsOnlyKeys("lock:nightly");
        assertThat(seen.get("lock:nightly")).containsExactly("executed", "in_progress", "executed");
    }
}
