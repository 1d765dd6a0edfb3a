package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.memory.MemoryStoreSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two callers of one operation, one flooding: the flooder takes its own share of the node's waiters and
 * of the memory store, and the other caller (and the operation's anonymous callers) are still served.
 * Real threads waiting on the real engine and memory store.
 */
class FloodingCallerTest {

    private static final String ALICE = "principal:alice";
    private static final String BOB = "principal:bob";

    private static OperationPolicy policy(InProgressPolicy p) {
        return new OperationPolicy(
                "payments.charge", Duration.ofHours(24), Duration.ofSeconds(30), p, ExceptionPolicy.DEFAULT, false);
    }

    @Test
    void aFloodingCallerTakesOnlyItsShareOfTheWaiters() throws Exception {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore();
        // 64 in total, 16 per key, 32 per operation, 4 per caller.
        IdempotencyEngine engine = new IdempotencyEngine(
                store, Duration.ofSeconds(1), IdempotencyObserver.NONE, new WaitLimits(64, 16, 32, 4, 8));
        OperationPolicy wait = policy(InProgressPolicy.WAIT);
        RecordKey aliceKey = RecordKey.of("payments.charge", ALICE, "k-1");
        RecordKey bobKey = RecordKey.of("payments.charge", BOB, "k-1");
        Admission.Owned aliceRunning = (Admission.Owned) engine.begin(wait, aliceKey, "fp");
        Admission.Owned bobRunning = (Admission.Owned) engine.begin(wait, bobKey, "fp");
        ExecutorService pool = Executors.newFixedThreadPool(24);
        try {
            List<CompletableFuture<Admission>> flood = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                flood.add(CompletableFuture.supplyAsync(() -> engine.begin(wait, aliceKey, "fp"), pool));
            }
            awaitSettledCount(flood, 16, "alice's refused duplicates");
            assertThat(engine.waiting()).as("alice's waiters").isEqualTo(4);
            List<CompletableFuture<Admission>> bob = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                bob.add(CompletableFuture.supplyAsync(() -> engine.begin(wait, bobKey, "fp"), pool));
            }
            awaitWaiting(engine, 8);
            assertThat(bob).as("bob's duplicates wait beside alice's flood").noneMatch(CompletableFuture::isDone);
            engine.complete(aliceRunning, new byte[] {1});
            engine.complete(bobRunning, new byte[] {2});
            for (CompletableFuture<Admission> f : bob) {
                assertThat(f.get(5, TimeUnit.SECONDS)).isInstanceOf(Admission.Replay.class);
            }
            long refused = flood.stream()
                    .filter(f -> {
                        try {
                            f.get(5, TimeUnit.SECONDS);
                            return false;
                        } catch (Exception e) {
                            return e.getCause() instanceof IdempotencyInProgressException;
                        }
                    })
                    .count();
            assertThat(refused)
                    .as("alice's duplicates beyond her 4 waiters, refused at once")
                    .isEqualTo(16);
            assertThat(engine.waiting()).as("every waiter counted out").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void callersWithoutAnIdentityAreBoundedPerOperation() {
        WaitLimits.Waiters waiters = new WaitLimits(64, 16, 3, 1, 8).waiters();
        RecordKey anonymous = RecordKey.of("orders.ship", RecordKey.ANONYMOUS, "k");
        RecordKey unscoped = RecordKey.of("orders.ship", "", "k2");
        RecordKey otherOperation = RecordKey.of("orders.refund", "", "k");
        assertThat(anonymous.caller()).isEmpty();
        // The per-caller bound (1) does not apply to callers without an identity; the operation's (3) does.
        assertThat(waiters.enter(anonymous, false)).isTrue();
        assertThat(waiters.enter(anonymous, false)).isTrue();
        assertThat(waiters.enter(unscoped, false)).isTrue();
        assertThat(waiters.enter(unscoped, false))
                .as("the operation's fourth waiter")
                .isFalse();
        assertThat(waiters.enter(otherOperation, false))
                .as("another operation's")
                .isTrue();
        waiters.leave(anonymous, false);
        assertThat(waiters.enter(unscoped, false)).as("a freed place").isTrue();
        assertThat(waiters.waiting()).isEqualTo(4);
    }

    @Test
    void joinedWaitersAreBoundedSoTheyCannotTakeThePool() {
        WaitLimits.Waiters waiters = new WaitLimits(64, 16, 32, 16, 2).waiters();
        assertThat(waiters.enter(RecordKey.of("a", "", "1"), true)).isTrue();
        assertThat(waiters.enter(RecordKey.of("b", "", "1"), true)).isTrue();
        assertThat(waiters.enter(RecordKey.of("c", "", "1"), true))
                .as("a third joined waiter, each holding a connection")
                .isFalse();
        assertThat(waiters.enter(RecordKey.of("c", "", "1"), false))
                .as("a separate one")
                .isTrue();
        waiters.leave(RecordKey.of("a", "", "1"), true);
        assertThat(waiters.enter(RecordKey.of("c", "", "1"), true)).isTrue();
        assertThat(waiters.waiting()).isEqualTo(3);
    }

    @Test
    void aFloodingCallerFillsOnlyItsShareOfTheMemoryStore() {
        // 100 records; an operation may hold 50, one identified caller of it 10.
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(
                Clock.systemUTC(),
                new MemoryStoreSettings(100, Long.MAX_VALUE, MemoryStoreSettings.DEFAULT_CLAIM_GRACE, 0.5, 0.1));
        IdempotencyEngine engine = new IdempotencyEngine(store);
        OperationPolicy reject = policy(InProgressPolicy.REJECT);
        int aliceRan = 0;
        IdempotencyStoreUnavailableException refused = null;
        for (int i = 0; i < 40; i++) {
            try {
                Admission.Owned owned =
                        (Admission.Owned) engine.begin(reject, RecordKey.of("payments.charge", ALICE, "a-" + i), "fp");
                // A stored 4xx answer, kept for the ttl like any outcome: it counts against alice's share.
                engine.complete(owned, new byte[] {4, 0, 0});
                aliceRan++;
            } catch (IdempotencyStoreUnavailableException e) {
                refused = e;
            }
        }
        assertThat(aliceRan).as("alice's new keys that ran").isEqualTo(10);
        assertThat(refused).isNotNull();
        assertThat(refused.operation()).isEqualTo("payments.charge");
        assertThat(refused.getMessage())
                .contains("One caller of operation 'payments.charge'", MemoryStoreSettings.CALLER_SHARE)
                .doesNotContain("alice");
        // Alice's replays still work: her records are there.
        assertThat(engine.begin(reject, RecordKey.of("payments.charge", ALICE, "a-3"), "fp"))
                .isInstanceOf(Admission.Replay.class);
        for (int i = 0; i < 10; i++) {
            assertThat(engine.begin(reject, RecordKey.of("payments.charge", BOB, "b-" + i), "fp"))
                    .as("bob's key " + i)
                    .isInstanceOf(Admission.Owned.class);
        }
        // Callers without an identity share the operation's share (50): 30 more fit beside alice's and bob's.
        int anonymousRan = 0;
        for (int i = 0; i < 40; i++) {
            try {
                engine.begin(reject, RecordKey.of("payments.charge", RecordKey.ANONYMOUS, "n-" + i), "fp");
                anonymousRan++;
            } catch (IdempotencyStoreUnavailableException e) {
                assertThat(e.getMessage()).contains("Operation 'payments.charge' holds its share");
            }
        }
        assertThat(anonymousRan).isEqualTo(30);
        // A released claim frees its caller's place.
        Admission.Owned carol = (Admission.Owned) engine.begin(
                policy(InProgressPolicy.REJECT).named("payments.refund"),
                RecordKey.of("payments.refund", "principal:carol", "c-0"),
                "fp");
        engine.release(carol);
        for (int i = 0; i < 10; i++) {
            assertThat(engine.begin(
                            policy(InProgressPolicy.REJECT).named("payments.refund"),
                            RecordKey.of("payments.refund", "principal:carol", "c-" + i),
                            "fp"))
                    .isInstanceOf(Admission.Owned.class);
        }
    }

    private static void awaitSettledCount(List<CompletableFuture<Admission>> futures, int expected, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (futures.stream().filter(CompletableFuture::isDone).count() < expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + expected + " " + what + " within 5 s, saw "
                        + futures.stream().filter(CompletableFuture::isDone).count());
            }
            Thread.sleep(10);
        }
    }

    private static void awaitWaiting(IdempotencyEngine engine, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (engine.waiting() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + expected + " waiting calls within 5 s, saw " + engine.waiting());
            }
            Thread.sleep(10);
        }
    }
}
