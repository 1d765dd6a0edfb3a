package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IdempotencyEngineTest {

    private final MemoryIdempotencyStore store = new MemoryIdempotencyStore();
    private final IdempotencyEngine engine = new IdempotencyEngine(store);

    private static OperationPolicy policy(InProgressPolicy p, Duration lease) {
        return new OperationPolicy("op", Duration.ofHours(1), lease, p, ExceptionPolicy.DEFAULT, false);
    }

    private static final OperationPolicy REJECT = policy(InProgressPolicy.REJECT, Duration.ofMinutes(1));
    private static final RecordKey KEY = RecordKey.of("op", "", "k1");

    @Test
    void firstCallOwnsThenRepeatsReplay() {
        Admission first = engine.begin(REJECT, KEY, "fp");
        assertThat(first).isInstanceOf(Admission.Owned.class);
        assertThat(engine.complete((Admission.Owned) first, new byte[] {42})).isTrue();
        Admission again = engine.begin(REJECT, KEY, "fp");
        assertThat(again).isInstanceOfSatisfying(Admission.Replay.class, r -> assertThat(r.outcome())
                .containsExactly(42));
    }

    @Test
    void ownerTokensAreUniquePerCall() {
        Admission.Owned a = (Admission.Owned) engine.begin(REJECT, RecordKey.of("op", "", "a"), "fp");
        Admission.Owned b = (Admission.Owned) engine.begin(REJECT, RecordKey.of("op", "", "b"), "fp");
        assertThat(a.owner()).isNotEqualTo(b.owner());
        assertThat(new IdempotencyEngine(store).begin(REJECT, RecordKey.of("op", "", "c"), "fp"))
                .isInstanceOfSatisfying(
                        Admission.Owned.class, c -> assertThat(c.owner()).isNotEqualTo(a.owner()));
    }

    @Test
    void inProgressIsRejectedWithTheRemainingLease() {
        engine.begin(REJECT, KEY, "fp");
        assertThatThrownBy(() -> engine.begin(REJECT, KEY, "fp"))
                .isInstanceOfSatisfying(IdempotencyInProgressException.class, e -> {
                    assertThat(e.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
                    assertThat(e.operation()).isEqualTo("op");
                    assertThat(e.keyHash()).isEqualTo(KEY.hash());
                    assertThat(e.getMessage()).doesNotContain("k1");
                });
    }

    @Test
    void aRejectedRepeatIsToldToRetrySoonNotWhenTheLeaseEnds() {
        engine.begin(REJECT, KEY, "fp");
        assertThatThrownBy(() -> engine.begin(REJECT, KEY, "fp"))
                .isInstanceOfSatisfying(IdempotencyInProgressException.class, e -> assertThat(e.retryAfter())
                        .as("the default hint, 1 s, not the minute left of the lease")
                        .isEqualTo(GlobalSettings.DEFAULT_RETRY_AFTER));

        IdempotencyEngine hinted = new IdempotencyEngine(store, Duration.ofSeconds(3));
        RecordKey other = RecordKey.of("op", "", "k2");
        hinted.begin(REJECT, other, "fp");
        assertThatThrownBy(() -> hinted.begin(REJECT, other, "fp"))
                .isInstanceOfSatisfying(IdempotencyInProgressException.class, e -> assertThat(e.retryAfter())
                        .isEqualTo(Duration.ofSeconds(3)));

        RecordKey shortLease = RecordKey.of("op", "", "k3");
        OperationPolicy brief = policy(InProgressPolicy.REJECT, Duration.ofMillis(400));
        hinted.begin(brief, shortLease, "fp");
        assertThatThrownBy(() -> hinted.begin(brief, shortLease, "fp"))
                .isInstanceOfSatisfying(IdempotencyInProgressException.class, e -> assertThat(e.retryAfter())
                        .as("never more than the remaining lease")
                        .isLessThanOrEqualTo(Duration.ofMillis(400)));
    }

    @Test
    void aDifferentFingerprintIsAMismatchEvenWhileInProgress() {
        engine.begin(REJECT, KEY, "fp");
        assertThatThrownBy(() -> engine.begin(REJECT, KEY, "other"))
                .isInstanceOf(IdempotencyKeyMismatchException.class);
    }

    @Test
    void waitReplaysTheOutcomeWhenItArrives() throws Exception {
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofSeconds(10));
        Admission.Owned first = (Admission.Owned) engine.begin(wait, KEY, "fp");
        CompletableFuture<Admission> waiter = CompletableFuture.supplyAsync(() -> engine.begin(wait, KEY, "fp"));
        Thread.sleep(100);
        assertThat(waiter).isNotDone();
        engine.complete(first, new byte[] {7});
        assertThat(waiter.get(5, TimeUnit.SECONDS)).isInstanceOf(Admission.Replay.class);
    }

    @Test
    void waitClaimsTheKeyItselfWhenTheFirstCallReleasesIt() throws Exception {
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofSeconds(10));
        Admission.Owned first = (Admission.Owned) engine.begin(wait, KEY, "fp");
        CompletableFuture<Admission> waiter = CompletableFuture.supplyAsync(() -> engine.begin(wait, KEY, "fp"));
        Thread.sleep(100);
        engine.release(first);
        assertThat(waiter.get(5, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
    }

    @Test
    void waitingDuplicatesAreBoundedPerKeyAndInTotal() throws Exception {
        IdempotencyEngine bounded =
                new IdempotencyEngine(store, Duration.ofSeconds(1), IdempotencyObserver.NONE, new WaitLimits(3, 2));
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofSeconds(20));
        RecordKey a = RecordKey.of("op", "", "wait-a");
        RecordKey b = RecordKey.of("op", "", "wait-b");
        Admission.Owned ownerA = (Admission.Owned) bounded.begin(wait, a, "fp");
        Admission.Owned ownerB = (Admission.Owned) bounded.begin(wait, b, "fp");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            java.util.List<CompletableFuture<Admission>> onA = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                onA.add(CompletableFuture.supplyAsync(() -> bounded.begin(wait, a, "fp"), pool));
            }
            // Two wait for key a; the third is over the per-key bound and refused at once, not after the lease.
            CompletableFuture<Object> refusedOnA = CompletableFuture.anyOf(onA.toArray(new CompletableFuture<?>[0]));
            assertThatThrownBy(() -> refusedOnA.get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IdempotencyInProgressException.class);
            CompletableFuture<Admission> firstOnB =
                    CompletableFuture.supplyAsync(() -> bounded.begin(wait, b, "fp"), pool);
            awaitWaiting(bounded, 3);
            // Three wait in total: a fourth, on key b, is over the total bound.
            assertThatThrownBy(() -> bounded.begin(wait, b, "fp")).isInstanceOf(IdempotencyInProgressException.class);
            bounded.complete(ownerA, new byte[] {1});
            bounded.complete(ownerB, new byte[] {2});
            long replays = onA.stream()
                    .filter(f -> !f.isCompletedExceptionally())
                    .map(f -> f.join())
                    .filter(r -> r instanceof Admission.Replay)
                    .count();
            assertThat(replays).as("the two admitted waiters on key a replay").isEqualTo(2);
            assertThat(firstOnB.get(5, TimeUnit.SECONDS)).isInstanceOf(Admission.Replay.class);
            assertThat(bounded.waiting()).as("every waiter counted out").isZero();
        } finally {
            pool.shutdownNow();
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

    @Test
    void waitGivesUpAfterTheLease() {
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofMillis(300));
        engine.begin(policy(InProgressPolicy.REJECT, Duration.ofMinutes(1)), KEY, "fp");
        long start = System.nanoTime();
        assertThatThrownBy(() -> engine.begin(wait, KEY, "fp")).isInstanceOf(IdempotencyInProgressException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isBetween(Duration.ofMillis(250), Duration.ofSeconds(5));
    }

    @Test
    void aFailingStoreStopsTheCallAndCompleteNeverThrows() {
        IdempotencyStore broken = new IdempotencyStore() {
            @Override
            public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
                throw new IllegalStateException("connection refused");
            }

            @Override
            public Optional<IdempotencyRecord> read(String key) {
                throw new IllegalStateException("connection refused");
            }

            @Override
            public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
                throw new IllegalStateException("connection refused");
            }

            @Override
            public boolean release(String key, String owner) {
                throw new IllegalStateException("connection refused");
            }

            @Override
            public int purgeExpired(int max) {
                return 0;
            }
        };
        IdempotencyEngine e = new IdempotencyEngine(broken);
        assertThatThrownBy(() -> e.begin(REJECT, KEY, "fp"))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("did not run")
                .hasMessageContaining(KEY.hash());
        Admission.Owned fake = new Admission.Owned(KEY, "o", REJECT, false);
        assertThat(e.complete(fake, new byte[0])).isFalse();
        assertThat(e.release(fake)).isFalse();
    }

    @Test
    void applicationsSharingAStoreNeverShareARecord() {
        // Two services on one store, one route, one client key (a gateway that sends the same key to both).
        IdempotencyEngine orders = new IdempotencyEngine(
                store, Duration.ofSeconds(1), IdempotencyObserver.NONE, WaitLimits.DEFAULT, KeepAlive.OFF, "orders");
        IdempotencyEngine billing = new IdempotencyEngine(
                store, Duration.ofSeconds(1), IdempotencyObserver.NONE, WaitLimits.DEFAULT, KeepAlive.OFF, "billing");
        RecordKey inOrders = orders.key("POST /charges", "anonymous", "gw-1");
        RecordKey inBilling = billing.key("POST /charges", "anonymous", "gw-1");
        Admission first = orders.begin(REJECT, inOrders, "fp-orders");
        assertThat(orders.complete((Admission.Owned) first, new byte[] {1})).isTrue();

        assertThat(billing.begin(REJECT, inBilling, "fp-billing"))
                .as("billing runs its own call: it neither replays orders' response nor answers 422")
                .isInstanceOf(Admission.Owned.class);
        assertThat(orders.begin(REJECT, inOrders, "fp-orders"))
                .isInstanceOfSatisfying(
                        Admission.Replay.class, r -> assertThat(r.outcome()).containsExactly(1));
        // A second node of the same application (the same name) shares its records.
        IdempotencyEngine ordersNode2 = new IdempotencyEngine(
                store, Duration.ofSeconds(1), IdempotencyObserver.NONE, WaitLimits.DEFAULT, KeepAlive.OFF, "orders");
        assertThat(ordersNode2.begin(REJECT, ordersNode2.key("POST /charges", "anonymous", "gw-1"), "fp-orders"))
                .isInstanceOf(Admission.Replay.class);
        // Unnamed applications keep sharing, as before: the name is the remedy the docs give.
        assertThat(engine.key("POST /charges", "anonymous", "gw-1"))
                .isEqualTo(RecordKey.of("POST /charges", "anonymous", "gw-1"));
        assertThat(orders.keys("POST /charges", "anonymous").key("gw-1")).isEqualTo(inOrders);
    }

    /**
     * A waiter whose key's running call is on its own node is woken by that call's completion: it
     * replays at once and asks the store only a few times meanwhile, where polling asked every 50 ms.
     */
    @Test
    void aWaiterOnTheOwnersNodeIsWokenByTheCompletion() throws Exception {
        java.util.concurrent.atomic.AtomicInteger claims = new java.util.concurrent.atomic.AtomicInteger();
        IdempotencyStore counting = new dev.idempotency.spi.DelegatingStore(store) {
            @Override
            public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
                claims.incrementAndGet();
                return super.claim(key, owner, fingerprint, lease);
            }
        };
        IdempotencyEngine node = new IdempotencyEngine(counting);
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofSeconds(30));
        RecordKey key = RecordKey.of("op", "", "woken");
        Admission.Owned owned = (Admission.Owned) node.begin(wait, key, "fp");
        CompletableFuture<Long> replayedAt = CompletableFuture.supplyAsync(() -> {
            Admission a = node.begin(wait, key, "fp");
            long at = System.nanoTime();
            assertThat(a).isInstanceOf(Admission.Replay.class);
            return at;
        });
        // 1.3 s: the waiter's fallback look at the store (every second) would come 0.7 s after the completion.
        Thread.sleep(1300);
        int claimsWhileWaiting = claims.get() - 1;
        long completed = System.nanoTime();
        assertThat(node.complete(owned, new byte[] {7})).isTrue();
        long at = replayedAt.get(30, TimeUnit.SECONDS);
        assertThat(claimsWhileWaiting)
                .as("the waiter's store calls in 1.3 s of waiting (polling every 50 ms made about 26)")
                .isBetween(1, 4);
        assertThat(TimeUnit.NANOSECONDS.toMillis(at - completed))
                .as("ms from the completion to the replay (without the wake-up, about 700)")
                .isLessThan(400);
    }

    /** A release on the owner's node wakes its waiter too, which then runs the call itself. */
    @Test
    void aReleaseWakesTheWaiterWhichThenOwnsTheKey() throws Exception {
        OperationPolicy wait = policy(InProgressPolicy.WAIT, Duration.ofSeconds(30));
        RecordKey key = RecordKey.of("op", "", "released");
        Admission.Owned owned = (Admission.Owned) engine.begin(wait, key, "fp");
        CompletableFuture<Admission> next = CompletableFuture.supplyAsync(() -> engine.begin(wait, key, "fp"));
        Thread.sleep(1300);
        long released = System.nanoTime();
        assertThat(engine.release(owned)).isTrue();
        assertThat(next.get(30, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released)).isLessThan(400);
    }
}
