package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.core.Hashing;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link IdempotencyStore} passes, against its real backend. A store's test
 * extends this class, returns a fresh (or emptied) store from {@link #store()}, and may override
 * {@link #elapse} (a store with a controllable clock moves it; others sleep) and the race sizes.
 *
 * <p>Time-based cases use {@link #SHORT} leases and ttls and then {@link #elapse} past them, so a
 * store that can only sleep still passes in well under a second per case.
 */
public abstract class IdempotencyStoreContract {

    /** A lease or ttl that {@link #elapse}({@link #PAST_SHORT}) outlives. */
    protected static final Duration SHORT = Duration.ofMillis(300);
    /** Long enough to outlive {@link #SHORT} on any store clock granularity. */
    protected static final Duration PAST_SHORT = Duration.ofMillis(1200);
    /** A lease or ttl no test outlives. */
    protected static final Duration LONG = Duration.ofMinutes(10);

    private static final AtomicInteger KEYS = new AtomicInteger();

    /** The store under test, empty of the keys this test class uses. */
    protected abstract IdempotencyStore store();

    /** Lets {@code d} pass on the store's clock. Default: sleeps. */
    protected void elapse(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    /** Threads in the claim race. */
    protected int raceThreads() {
        return 64;
    }

    /** Keys in the claim race; every thread claims every key. */
    protected int raceKeys() {
        return 1000;
    }

    /**
     * The caller's transaction that the joined cases run in, for a store that can join ({@link
     * IdempotencyStore#canJoinCallerTransaction}); {@code null} (the default) for one that cannot.
     */
    protected CallerTransaction callerTransaction() {
        return null;
    }

    /** A caller's transaction on this thread, as a JTA container begins and ends it around a call. */
    public interface CallerTransaction {
        void begin() throws Exception;

        void commit() throws Exception;

        void rollback() throws Exception;

        /**
         * Marks the active transaction for rollback, as the caller's own work does (a failed flush, a
         * nested {@code @Transactional} method that threw).
         *
         * @return false (the default) where this transaction cannot be marked: the case that needs it is
         *     skipped
         */
        default boolean markForRollback() throws Exception {
            return false;
        }
    }

    private IdempotencyStore store;
    private String prefix;

    @BeforeEach
    void setUpContract() {
        store = store();
        prefix = getClass().getSimpleName() + "-" + System.nanoTime() + "-";
    }

    /** A fresh key in the store's key format (64 hex characters). */
    protected String key() {
        return Hashing.sha256Hex(prefix + KEYS.incrementAndGet());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void claimOnAFreeKeyStoresAnInProgressRecord() {
        String k = key();
        ClaimResult r = store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(r.claimed()).isTrue();
        assertThat(r.record().status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(r.record().owner()).isEqualTo("owner-1");
        assertThat(r.record().fingerprint()).isEqualTo("fp-1");
        assertThat(store.read(k)).hasValueSatisfying(rec -> {
            assertThat(rec.status()).isEqualTo(RecordStatus.IN_PROGRESS);
            assertThat(rec.owner()).isEqualTo("owner-1");
            assertThat(rec.outcome()).isNull();
        });
    }

    @Test
    void secondClaimSeesTheFirstAndChangesNothing() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        ClaimResult second = store.claim(k, "owner-2", "fp-2", LONG);
        assertThat(second.claimed()).isFalse();
        assertThat(second.record().owner()).isEqualTo("owner-1");
        assertThat(second.record().fingerprint()).isEqualTo("fp-1");
        assertThat(store.read(k).orElseThrow().owner()).isEqualTo("owner-1");
    }

    @Test
    void readOfAnUnknownKeyIsEmpty() {
        assertThat(store.read(key())).isEmpty();
    }

    @Test
    void completeByOwnerStoresTheOutcomeForReplay() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        byte[] outcome = bytes("{\"t\":\"value\",\"v\":[1,2,3]}");
        assertThat(store.complete(k, "owner-1", outcome, LONG)).isTrue();

        ClaimResult again = store.claim(k, "owner-2", "fp-1", LONG);
        assertThat(again.claimed()).isFalse();
        assertThat(again.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(again.record().outcome()).isEqualTo(outcome);
        assertThat(again.record().fingerprint()).isEqualTo("fp-1");
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(outcome);
    }

    @Test
    void largeAndBinaryOutcomesComeBackByteForByte() {
        String k = key();
        byte[] outcome = new byte[256 * 1024];
        for (int i = 0; i < outcome.length; i++) {
            outcome[i] = (byte) (i * 31 + 7);
        }
        store.claim(k, "o", "fp", LONG);
        assertThat(store.complete(k, "o", outcome, LONG)).isTrue();
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(outcome);
    }

    @Test
    void completeByAnotherOwnerIsFenced() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(store.complete(k, "intruder", bytes("x"), LONG)).isFalse();
        assertThat(store.read(k).orElseThrow().status()).isEqualTo(RecordStatus.IN_PROGRESS);
    }

    @Test
    void completeOfAnUnclaimedKeyDoesNothing() {
        String k = key();
        assertThat(store.complete(k, "owner-1", bytes("x"), LONG)).isFalse();
        assertThat(store.read(k)).isEmpty();
    }

    @Test
    void aCompletedRecordCannotBeCompletedOrReleasedAgain() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        store.complete(k, "owner-1", bytes("first"), LONG);
        assertThat(store.complete(k, "owner-1", bytes("second"), LONG)).isFalse();
        assertThat(store.release(k, "owner-1")).isFalse();
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(bytes("first"));
    }

    @Test
    void releaseByOwnerFreesTheKey() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(store.release(k, "owner-1")).isTrue();
        assertThat(store.read(k)).isEmpty();
        assertThat(store.claim(k, "owner-2", "fp-2", LONG).claimed()).isTrue();
    }

    @Test
    void releaseByAnotherOwnerIsFenced() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(store.release(k, "intruder")).isFalse();
        assertThat(store.read(k).orElseThrow().owner()).isEqualTo("owner-1");
    }

    @Test
    void anEndedLeaseCanBeTakenOverAndTheOldOwnerIsFenced() throws Exception {
        String k = key();
        store.claim(k, "slow-owner", "fp-1", SHORT);
        assertThat(store.claim(k, "early", "fp-1", LONG).claimed()).isFalse();
        elapse(PAST_SHORT);

        ClaimResult takeover = store.claim(k, "new-owner", "fp-1", LONG);
        assertThat(takeover.claimed()).isTrue();
        assertThat(takeover.record().owner()).isEqualTo("new-owner");

        assertThat(store.complete(k, "slow-owner", bytes("stale"), LONG)).isFalse();
        assertThat(store.release(k, "slow-owner")).isFalse();
        assertThat(store.read(k).orElseThrow().owner()).isEqualTo("new-owner");
        assertThat(store.complete(k, "new-owner", bytes("fresh"), LONG)).isTrue();
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(bytes("fresh"));
    }

    @Test
    void aTakeoverReportsTheInProgressRecordItReplacedAndAFreshClaimReportsNone() throws Exception {
        String k = key();
        ClaimResult fresh = store.claim(k, "crashed-owner", "fp-1", SHORT);
        assertThat(fresh.replaced()).isNull();
        elapse(PAST_SHORT);

        ClaimResult takeover = store.claim(k, "new-owner", "fp-1", LONG);
        assertThat(takeover.claimed()).isTrue();
        assertThat(takeover.replaced()).isNotNull();
        assertThat(takeover.replaced().owner()).isEqualTo("crashed-owner");
        assertThat(takeover.replaced().status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(store.claim(k, "third", "fp-1", LONG).replaced()).isNull();
    }

    @Test
    void aRecordKeepsTheTimeItsClaimWasMadeThroughCompletionAndATakeoverRestartsIt() throws Exception {
        String k = key();
        IdempotencyRecord claim = store.claim(k, "owner-1", "fp-1", SHORT).record();
        assertThat(claim.createdAt()).isNotNull();
        // expiresAt = createdAt + lease on the store's clock (to the store's precision, at worst 1 ms).
        assertThat(Duration.between(claim.createdAt(), claim.expiresAt())
                        .minus(SHORT)
                        .abs())
                .isLessThanOrEqualTo(Duration.ofMillis(1));
        assertThat(store.read(k).orElseThrow().createdAt()).isEqualTo(claim.createdAt());
        elapse(PAST_SHORT);

        IdempotencyRecord takeover = store.claim(k, "owner-2", "fp-1", LONG).record();
        assertThat(takeover.createdAt()).isAfter(claim.createdAt());
        assertThat(store.complete(k, "owner-2", bytes("done"), LONG)).isTrue();
        IdempotencyRecord completed = store.read(k).orElseThrow();
        assertThat(completed.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(completed.createdAt()).isEqualTo(takeover.createdAt());
    }

    @Test
    void renewKeepsARunningClaimFromBeingTakenOverForThreeTimesItsLease() throws Exception {
        // The keep-alive: the owner renews every third of its lease; at every step a duplicate finds the
        // claim live, although the whole run lasts three leases.
        String k = key();
        assertThat(store.claim(k, "runner", "fp-1", SHORT).claimed()).isTrue();
        Duration third = SHORT.dividedBy(3);
        for (int step = 0; step < 9; step++) {
            elapse(third);
            assertThat(store.renew(k, "runner", SHORT))
                    .as("renewal %d of the owner's claim", step)
                    .isTrue();
            ClaimResult duplicate = store.claim(k, "duplicate-" + step, "fp-1", LONG);
            assertThat(duplicate.claimed())
                    .as("a duplicate took over a claim renewed %d times", step + 1)
                    .isFalse();
            assertThat(duplicate.record().owner()).isEqualTo("runner");
        }
        assertThat(store.complete(k, "runner", bytes("once"), LONG)).isTrue();
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(bytes("once"));
    }

    @Test
    void aClaimThatIsNoLongerRenewedEndsWithItsLease() throws Exception {
        String k = key();
        store.claim(k, "runner", "fp-1", SHORT);
        assertThat(store.renew(k, "runner", SHORT)).isTrue();
        elapse(PAST_SHORT);
        ClaimResult takeover = store.claim(k, "next", "fp-1", LONG);
        assertThat(takeover.claimed()).isTrue();
        assertThat(store.renew(k, "runner", LONG))
                .as("the old owner renews a claim that was taken over")
                .isFalse();
        assertThat(store.read(k).orElseThrow().owner()).isEqualTo("next");
    }

    @Test
    void renewIsFencedByTheOwnerAndTheStatus() {
        String k = key();
        assertThat(store.renew(k, "nobody", LONG)).as("renew of a free key").isFalse();
        assertThat(store.read(k)).isEmpty();

        IdempotencyRecord claim = store.claim(k, "owner-1", "fp-1", LONG).record();
        assertThat(store.renew(k, "intruder", LONG)).isFalse();
        IdempotencyRecord after = store.read(k).orElseThrow();
        assertThat(after.owner()).isEqualTo("owner-1");
        assertThat(after.fingerprint()).isEqualTo("fp-1");
        assertThat(after.status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(after.createdAt()).isEqualTo(claim.createdAt());

        assertThat(store.complete(k, "owner-1", bytes("done"), LONG)).isTrue();
        assertThat(store.renew(k, "owner-1", LONG))
                .as("renew of a COMPLETED record")
                .isFalse();
        IdempotencyRecord completed = store.read(k).orElseThrow();
        assertThat(completed.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(completed.outcome()).isEqualTo(bytes("done"));

        String released = key();
        store.claim(released, "owner-2", "fp-1", LONG);
        assertThat(store.release(released, "owner-2")).isTrue();
        assertThat(store.renew(released, "owner-2", LONG))
                .as("renew after release")
                .isFalse();
        assertThat(store.read(released)).isEmpty();
    }

    @Test
    void renewWithAShorterLeaseNeverShortensAClaim() throws Exception {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(store.renew(k, "owner-1", SHORT)).isTrue();
        elapse(PAST_SHORT);
        assertThat(store.claim(k, "duplicate", "fp-1", LONG).claimed())
                .as("a renewal with a shorter lease cut the claim short")
                .isFalse();
        assertThat(store.complete(k, "owner-1", bytes("done"), LONG)).isTrue();
    }

    @Test
    void deleteCompletedRemovesOnlyTheOwnersCompletedRecord() {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        assertThat(store.deleteCompleted(k, "owner-1"))
                .as("an IN_PROGRESS claim is released, never deleted as completed")
                .isFalse();
        assertThat(store.complete(k, "owner-1", bytes("wrong"), LONG)).isTrue();
        assertThat(store.deleteCompleted(k, "someone-else")).isFalse();
        assertThat(store.read(k)).isPresent();

        assertThat(store.deleteCompleted(k, "owner-1")).isTrue();
        assertThat(store.read(k)).isEmpty();
        assertThat(store.deleteCompleted(k, "owner-1")).isFalse();
        ClaimResult again = store.claim(k, "owner-2", "fp-1", LONG);
        assertThat(again.claimed()).as("the next call runs again").isTrue();
        assertThat(again.replaced()).isNull();
    }

    @Test
    void anOwnerPastItsLeaseStillCompletesWhenNobodyTookOver() throws Exception {
        String k = key();
        store.claim(k, "late-owner", "fp-1", SHORT);
        elapse(PAST_SHORT);
        assertThat(store.complete(k, "late-owner", bytes("late"), LONG)).isTrue();
        assertThat(store.read(k).orElseThrow().outcome()).isEqualTo(bytes("late"));
    }

    @Test
    void aCompletedRecordExpiresAfterItsTtlAndTheKeyIsFreeAgain() throws Exception {
        String k = key();
        store.claim(k, "owner-1", "fp-1", LONG);
        store.complete(k, "owner-1", bytes("x"), SHORT);
        assertThat(store.read(k)).isPresent();
        elapse(PAST_SHORT);
        assertThat(store.read(k)).isEmpty();
        ClaimResult again = store.claim(k, "owner-2", "fp-2", LONG);
        assertThat(again.claimed()).isTrue();
        assertThat(again.record().fingerprint()).isEqualTo("fp-2");
    }

    @Test
    void purgeDeletesExpiredRecordsAndKeepsLiveOnes() throws Exception {
        List<String> expiring = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String k = key();
            store.claim(k, "o", "fp", LONG);
            store.complete(k, "o", bytes("x"), SHORT);
            expiring.add(k);
        }
        String abandoned = key();
        store.claim(abandoned, "o", "fp", SHORT);
        String live = key();
        store.claim(live, "o", "fp", LONG);
        store.complete(live, "o", bytes("keep"), LONG);
        String running = key();
        store.claim(running, "o", "fp", LONG);

        elapse(PAST_SHORT);
        int purged = 0;
        for (int round = 0; round < 100; round++) {
            int n = store.purgeExpired(1000);
            purged += n;
            if (n == 0) {
                break;
            }
        }
        // Stores that expire entries by themselves may already have dropped some: never more than ours.
        assertThat(purged).isGreaterThanOrEqualTo(0);
        for (String k : expiring) {
            assertThat(store.read(k)).isEmpty();
        }
        assertThat(store.read(abandoned)).isEmpty();
        assertThat(store.read(live).orElseThrow().outcome()).isEqualTo(bytes("keep"));
        assertThat(store.read(running).orElseThrow().status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(store.complete(running, "o", bytes("done"), LONG)).isTrue();
    }

    @Test
    void purgeRespectsItsBatchLimit() throws Exception {
        for (int i = 0; i < 7; i++) {
            String k = key();
            store.claim(k, "o", "fp", LONG);
            store.complete(k, "o", bytes("x"), SHORT);
        }
        elapse(PAST_SHORT);
        assertThat(store.purgeExpired(3)).isLessThanOrEqualTo(3);
    }

    @Test
    void concurrentClaimsOfOneKeyHaveExactlyOneWinnerPerKey() throws Exception {
        int threads = raceThreads();
        int keys = raceKeys();
        String[] k = new String[keys];
        for (int i = 0; i < keys; i++) {
            k[i] = key();
        }
        AtomicIntegerArray winners = new AtomicIntegerArray(keys);
        Races.rounds(threads, keys, t -> "racer-" + t, (owner, t, i) -> {
            if (store.claim(k[i], owner, "fp", LONG).claimed()) {
                winners.incrementAndGet(i);
            }
        });
        for (int i = 0; i < keys; i++) {
            assertThat(winners.get(i)).as("winners of key %d", i).isEqualTo(1);
        }
    }

    @Test
    void concurrentCompleteAndTakeoverNeverBothWin() throws Exception {
        // The old owner completes while a new caller takes over the ended lease: at most one of them
        // may succeed, and the stored record must be consistent with the winner.
        int rounds = 50;
        for (int round = 0; round < rounds; round++) {
            String k = key();
            store.claim(k, "old", "fp", Duration.ofMillis(1));
            elapse(Duration.ofMillis(20));
            Races gate = new Races(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Boolean> completed = pool.submit(() -> {
                    gate.await();
                    return store.complete(k, "old", bytes("old-outcome"), LONG);
                });
                Future<Boolean> tookOver = pool.submit(() -> {
                    gate.await();
                    return store.claim(k, "new", "fp", LONG).claimed();
                });
                boolean c = completed.get(1, TimeUnit.MINUTES);
                boolean t = tookOver.get(1, TimeUnit.MINUTES);
                Optional<IdempotencyRecord> rec = store.read(k);
                assertThat(rec).isPresent();
                if (t) {
                    // The takeover won, so the old owner's complete must have been fenced (had it
                    // completed first, the COMPLETED record would be live and not claimable).
                    assertThat(c)
                            .as("old owner completed although the key was taken over")
                            .isFalse();
                    assertThat(rec.get().owner()).isEqualTo("new");
                    assertThat(rec.get().status()).isEqualTo(RecordStatus.IN_PROGRESS);
                } else {
                    assertThat(c).isTrue();
                    assertThat(rec.get().status()).isEqualTo(RecordStatus.COMPLETED);
                    assertThat(rec.get().outcome()).isEqualTo(bytes("old-outcome"));
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ------------------------------------------------------------------ the joined transaction mode

    private static final GuardedOperation JOINED =
            new GuardedOperation("contract.joined", dev.idempotency.Participation.JOINED);

    @Test
    void aStoreEitherJoinsCallersTransactionsOrRefusesAJoinedCall() {
        if (store.canJoinCallerTransaction()) {
            assertThat(callerTransaction())
                    .as("a store that can join gives the contract a caller's transaction for its joined cases")
                    .isNotNull();
            return;
        }
        String k = key();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.claim(JOINED, k, "o", "fp", LONG))
                .isInstanceOf(dev.idempotency.IdempotencyConfigurationException.class)
                .hasMessageContaining("contract.joined");
        assertThat(store.read(k)).as("a refused joined claim writes nothing").isEmpty();
    }

    @Test
    void aJoinedCompletionCountsOnceTheCallersTransactionCommits() throws Exception {
        String k = key();
        if (!inCallersTransaction(true, () -> {
            assertThat(store.claim(JOINED, k, "o", "fp", LONG).claimed()).isTrue();
            assertThat(store.complete(JOINED, k, "o", bytes("joined"), LONG)).isTrue();
        })) {
            return; // a store that cannot join: the case above checks that it refuses
        }
        IdempotencyRecord r = store.read(k).orElseThrow(() -> new AssertionError("no record after the commit"));
        assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(r.outcome()).isEqualTo(bytes("joined"));
        assertThat(store.claim(k, "other", "fp", LONG).claimed())
                .as("the committed record is replayed, not claimed again")
                .isFalse();
    }

    @Test
    void aJoinedCompletionRolledBackLeavesTheKeyFree() throws Exception {
        String k = key();
        if (!inCallersTransaction(false, () -> {
            assertThat(store.claim(JOINED, k, "o", "fp", LONG).claimed()).isTrue();
            assertThat(store.complete(JOINED, k, "o", bytes("undone"), LONG)).isTrue();
        })) {
            return;
        }
        assertThat(store.read(k).filter(r -> r.status() == RecordStatus.COMPLETED))
                .as("no outcome of a rolled-back transaction")
                .isEmpty();
        assertThat(store.claim(k, "retry", "fp", LONG).claimed())
                .as("the retry after the rollback runs")
                .isTrue();
    }

    @Test
    void aJoinedReleaseFreesTheKeyWhenTheTransactionCommits() throws Exception {
        String k = key();
        if (!inCallersTransaction(true, () -> {
            assertThat(store.claim(JOINED, k, "o", "fp", LONG).claimed()).isTrue();
            assertThat(store.release(JOINED, k, "o")).isTrue();
        })) {
            return;
        }
        assertThat(store.claim(k, "retry", "fp", LONG).claimed()).isTrue();
    }

    /**
     * A joined completion in a transaction the caller's work marked for rollback writes nothing and
     * says so ({@link CallerTransactionRollingBackException}); once the transaction rolled back, the
     * key is free.
     */
    @Test
    void aJoinedCompletionInATransactionMarkedForRollbackWritesNothing() throws Exception {
        String k = key();
        CallerTransaction tx = store.canJoinCallerTransaction() ? callerTransaction() : null;
        if (tx == null) {
            return;
        }
        tx.begin();
        try {
            assertThat(store.claim(JOINED, k, "o", "fp", LONG).claimed()).isTrue();
            if (!tx.markForRollback()) {
                return;
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> store.complete(JOINED, k, "o", bytes("doomed"), LONG))
                    .isInstanceOf(CallerTransactionRollingBackException.class)
                    .hasMessageContaining("contract.joined");
        } finally {
            tx.rollback();
        }
        assertThat(store.read(k).filter(r -> r.status() == RecordStatus.COMPLETED))
                .as("no outcome of the rolled-back transaction")
                .isEmpty();
        assertThat(store.claim(k, "retry", "fp", LONG).claimed())
                .as("the retry after the rollback runs")
                .isTrue();
    }

    @Test
    void callsOfNoOperationStaySeparateInsideACallersTransaction() throws Exception {
        String k = key();
        if (!inCallersTransaction(false, () -> {
            assertThat(store.claim(GuardedOperation.NONE, k, "o", "fp", LONG).claimed())
                    .isTrue();
            assertThat(store.complete(GuardedOperation.NONE, k, "o", bytes("kept"), LONG))
                    .isTrue();
        })) {
            return;
        }
        assertThat(store.read(k).map(IdempotencyRecord::status))
                .as("a message attempt or token record is not undone by the caller's rollback")
                .contains(RecordStatus.COMPLETED);
    }

    /** Calls a store makes inside a caller's transaction. */
    @FunctionalInterface
    protected interface InTransaction {
        void run() throws Exception;
    }

    /**
     * Runs {@code calls} in the caller's transaction of a store that can join, then commits it (or rolls
     * it back when {@code commit} is false, or when the calls fail).
     *
     * @return false, having run nothing, for a store that cannot join
     */
    private boolean inCallersTransaction(boolean commit, InTransaction calls) throws Exception {
        CallerTransaction tx = store.canJoinCallerTransaction() ? callerTransaction() : null;
        if (tx == null) {
            return false;
        }
        tx.begin();
        try {
            calls.run();
        } catch (Exception | AssertionError e) {
            tx.rollback();
            throw e;
        }
        if (commit) {
            tx.commit();
        } else {
            tx.rollback();
        }
        return true;
    }
}
