package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.ExceptionPolicy;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.spi.BoundStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.DelegatingStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one PostgreSQL database, each its own pool, store and engine: a duplicate waiting on
 * node B for a call running on node A is woken by the {@code pg_notify} that A's notifier sends once
 * A's completion (or release) committed, instead of looking at the table every 250 ms at most (the
 * engine's pause when the store sends notices). With {@code idempotency.jpa.notify-settlements} on, the default.
 * Also: many concurrent completions all arrive; the listening connection, terminated, is replaced; a
 * joined completion's notice leaves at the caller's commit, and none after a rollback; on other
 * databases there are no notices.
 */
@Tag("services")
class JpaSettlementNoticeTest {

    private static final OperationPolicy WAIT = new OperationPolicy(
            "op", Duration.ofHours(1), Duration.ofSeconds(30), InProgressPolicy.WAIT, ExceptionPolicy.DEFAULT, false);
    /** How long the waiter waits before the owner settles: its pause has grown to the 250 ms cap by then. */
    private static final long HOLD_MILLIS = 1300;
    /**
     * The bound on the median from settlement to the waiter's answer. Without a notice the waiter finds
     * the settlement at its next look, up to 250 ms later: after this hold, about 220 ms (its looks come
     * 1,255 and 1,505 ms after it starts).
     */
    private static final long NOTICE_BOUND_MILLIS = 40;
    /** The bound from the last of many concurrent completions to B having heard them all. */
    private static final long MANY_NOTICES_BOUND_MILLIS = 2000;

    private static final Map<String, String> NOTICES = Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true");

    private static HikariDataSource poolA;
    private static HikariDataSource poolB;
    private static JpaIdempotencyStore nodeA;
    private static JpaIdempotencyStore nodeB;
    /** The waiting duplicate's thread, started before the trials so that each waiter starts on time. */
    private static ExecutorService waiter;

    @BeforeAll
    static void start() {
        poolA = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
        poolB = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
        nodeA = TestDatabases.store(poolA, Clock.systemUTC(), NOTICES);
        nodeB = TestDatabases.store(poolB, Clock.systemUTC(), NOTICES);
        waiter = Executors.newSingleThreadExecutor();
        waiter.submit(() -> {});
    }

    @AfterAll
    static void stop() {
        waiter.shutdownNow();
        nodeA.close();
        nodeB.close();
        poolA.close();
        poolB.close();
    }

    @Test
    void aWaiterOnAnotherNodeIsWokenByTheCompletionsNotice() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(counting(nodeB, looks));
        List<Long> latencies = new ArrayList<>();
        List<Integer> looksWhileWaiting = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "notice-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            int before = looks.get();
            CompletableFuture<Long> replayedAt = CompletableFuture.supplyAsync(
                    () -> {
                        Admission replay = b.begin(WAIT, key, "fp");
                        long at = System.nanoTime();
                        assertThat(replay).isInstanceOf(Admission.Replay.class);
                        return at;
                    },
                    waiter);
            Thread.sleep(HOLD_MILLIS);
            looksWhileWaiting.add(looks.get() - before);
            long completed = System.nanoTime();
            assertThat(a.complete(owned, new byte[] {7})).isTrue();
            latencies.add(TimeUnit.NANOSECONDS.toMillis(replayedAt.get(30, TimeUnit.SECONDS) - completed));
        }
        assertThat(median(latencies))
                .as(
                        "median ms from the completion on A to the replay on B (polling alone: about 220); all: %s",
                        latencies)
                .isLessThan(NOTICE_BOUND_MILLIS);
        assertThat(looksWhileWaiting)
                .as("B's looks at the table in %d ms of waiting (polling every 50 ms made about 30)", HOLD_MILLIS)
                .allSatisfy(n -> assertThat(n).isBetween(1, 14));
    }

    @Test
    void aReleaseOnAnotherNodeWakesTheWaiterWhichThenOwnsTheKey() throws Exception {
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(nodeB);
        List<Long> latencies = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "released-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            CompletableFuture<Admission> next = CompletableFuture.supplyAsync(() -> b.begin(WAIT, key, "fp"), waiter);
            Thread.sleep(HOLD_MILLIS);
            long released = System.nanoTime();
            assertThat(a.release(owned)).isTrue();
            Admission admission = next.get(30, TimeUnit.SECONDS);
            latencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released));
            assertThat(admission).isInstanceOf(Admission.Owned.class);
            b.release((Admission.Owned) admission);
        }
        assertThat(median(latencies))
                .as("median ms from the release on A to B owning the key; all: %s", latencies)
                .isLessThan(NOTICE_BOUND_MILLIS);
    }

    /**
     * The listening connection of node B is terminated from another session, as a database restart or
     * an administrator would: B listens again on a new connection within its reconnect pause (plus a
     * wait for notices), and the notices of A's completions reach B's waiters again.
     */
    @Test
    void aTerminatedListeningConnectionIsReplacedAndNoticesFlowAgain() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        assertThat(nodeB.notifySettlements(heard::add)).isTrue();
        SettlementNotices notices = listening(nodeB);
        int sessions = notices.sessions();
        int pid = notices.backendPid();
        assertThat(pid).as("B's listening backend").isNotZero();

        try (Connection admin = poolA.getConnection();
                PreparedStatement ps = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next() && rs.getBoolean(1))
                        .as("pg_terminate_backend(%d)", pid)
                        .isTrue();
            }
        }
        long bound = SettlementNotices.RECONNECT_PAUSE_MILLIS + 4000;
        awaitUntil(
                () -> notices.sessions() > sessions && notices.backendPid() != 0,
                bound,
                () -> "B listening again after its backend " + pid + " was terminated: sessions " + sessions + " -> "
                        + notices.sessions() + ", backend " + notices.backendPid());
        assertThat(notices.backendPid()).as("the new listening backend").isNotEqualTo(pid);

        String key = Hashing.sha256Hex("after-reconnect-" + UUID.randomUUID());
        assertThat(nodeA.claim(key, "owner-1", "fp", Duration.ofMinutes(1)).claimed())
                .isTrue();
        assertThat(nodeA.complete(key, "owner-1", new byte[] {1}, Duration.ofHours(1)))
                .isTrue();
        awaitUntil(
                () -> heard.contains(key),
                5000,
                () -> "B hearing A's completion of " + key + " after reconnecting; heard: " + heard);
    }

    /**
     * Many owners completing at once: 200 keys claimed and completed on A from 8 threads, and every key
     * reaches B as a notice, within a bound after the last completion. The notifier sends what
     * accumulated while it sent the previous batch; a lost or dropped key would be missing here.
     */
    @Test
    void manyConcurrentCompletionsAllArriveOnTheOtherNode() throws Exception {
        java.util.Set<String> heard = java.util.concurrent.ConcurrentHashMap.newKeySet();
        assertThat(nodeB.notifySettlements(heard::add)).isTrue();
        List<String> keys = java.util.stream.IntStream.range(0, 200)
                .mapToObj(i -> Hashing.sha256Hex("many-" + i + "-" + UUID.randomUUID()))
                .toList();
        SettlementNotifier notifier = nodeA.notifier();
        assertThat(notifier).as("A's notifier").isNotNull();
        long droppedBefore = notifier.dropped();
        ExecutorService owners = Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Boolean>> completed = new ArrayList<>();
            for (String key : keys) {
                completed.add(owners.submit(() ->
                        nodeA.claim(key, "owner-1", "fp", Duration.ofMinutes(1)).claimed()
                                && nodeA.complete(key, "owner-1", new byte[] {4}, Duration.ofHours(1))));
            }
            for (java.util.concurrent.Future<Boolean> f : completed) {
                assertThat(f.get(30, TimeUnit.SECONDS))
                        .as("a claim and complete on A")
                        .isTrue();
            }
        } finally {
            owners.shutdownNow();
        }
        awaitUntil(() -> heard.containsAll(keys), MANY_NOTICES_BOUND_MILLIS, () -> {
            List<String> missing = keys.stream().filter(k -> !heard.contains(k)).toList();
            return "B hearing all " + keys.size() + " completions of A: " + missing.size() + " missing (first: "
                    + missing.stream().limit(3).toList() + "); A's notifier sent " + notifier.sent()
                    + " in all, dropped " + (notifier.dropped() - droppedBefore) + " in this test";
        });
        assertThat(notifier.dropped() - droppedBefore)
                .as("keys A's notifier dropped")
                .isZero();
    }

    /**
     * In the joined mode the completion's notice goes out after the caller's commit, when the record
     * is visible to the other nodes, and not before; after a rollback, none goes out at all.
     */
    @Test
    void aJoinedCompletionIsHeardAtTheCallersCommit() throws Exception {
        String operation = "notice-test.joined";
        TestDatabases.Joined joined =
                TestDatabases.joined(poolA, Clock.systemUTC(), Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true"));
        try {
            List<String> heard = new CopyOnWriteArrayList<>();
            assertThat(nodeB.notifySettlements(heard::add)).isTrue();
            var store = BoundStore.of(joined.store(), operation, Participation.JOINED);
            String key = Hashing.sha256Hex("joined-" + UUID.randomUUID());

            joined.tx().begin();
            try {
                assertThat(store.claim(key, "owner-1", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                assertThat(store.complete(key, "owner-1", new byte[] {2}, Duration.ofHours(1)))
                        .isTrue();
                Thread.sleep(500);
                assertThat(heard)
                        .as("what B heard in 500 ms after the joined completion, before the caller committed")
                        .doesNotContain(key);
            } catch (Throwable t) {
                joined.tx().rollback();
                throw t;
            }
            joined.tx().commit();
            awaitUntil(
                    () -> heard.contains(key),
                    1000,
                    () -> "B hearing the joined completion of " + key + " after the commit; heard: " + heard);

            String rolledBack = Hashing.sha256Hex("joined-rolled-back-" + UUID.randomUUID());
            joined.tx().begin();
            try {
                assertThat(store.claim(rolledBack, "owner-1", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                assertThat(store.complete(rolledBack, "owner-1", new byte[] {2}, Duration.ofHours(1)))
                        .isTrue();
            } finally {
                joined.tx().rollback();
            }
            // The notices leave one after another from one thread: once a later one is heard, a notice of
            // the rolled-back completion would have been heard before it.
            String later = Hashing.sha256Hex("joined-later-" + UUID.randomUUID());
            joined.tx().begin();
            store.claim(later, "owner-1", "fp", Duration.ofMinutes(1));
            store.complete(later, "owner-1", new byte[] {2}, Duration.ofHours(1));
            joined.tx().commit();
            awaitUntil(
                    () -> heard.contains(later),
                    1000,
                    () -> "B hearing the joined completion of " + later + " after the commit; heard: " + heard);
            assertThat(heard)
                    .as("what B heard, the rolled-back completion's key being " + rolledBack)
                    .doesNotContain(rolledBack);
        } finally {
            joined.close();
        }
    }

    /**
     * On by default on PostgreSQL; with {@code false} the store neither listens nor sends, and its
     * statements carry no notice.
     */
    @Test
    void onByDefaultAndFalseSendsNone() throws Exception {
        JpaIdempotencyStore byDefault = JpaStores.resourceLocal(
                poolA, JpaStoreSettings.from(dev.idempotency.spi.ConfigLookup.none()), Clock.systemUTC());
        try {
            assertThat(byDefault.notifier()).as("the default store's notifier").isNotNull();
            assertThat(byDefault.notifySettlements(k -> {}))
                    .as("the default store listens")
                    .isTrue();
        } finally {
            byDefault.close();
        }
        TestDatabases.Recording recording = new TestDatabases.Recording(poolA);
        JpaIdempotencyStore silent = JpaStores.resourceLocal(
                recording.dataSource,
                JpaStoreSettings.from(
                        dev.idempotency.spi.ConfigLookup.of(Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "false"))),
                Clock.systemUTC());
        try {
            assertThat(silent.notifySettlements(k -> {})).isFalse();
            assertThat(silent.notifier()).as("the silent store's notifier").isNull();
            String key = Hashing.sha256Hex("silent-" + UUID.randomUUID());
            silent.claim(key, "owner-1", "fp", Duration.ofMinutes(1));
            recording.take();
            assertThat(silent.complete(key, "owner-1", new byte[] {3}, Duration.ofHours(1)))
                    .isTrue();
            assertThat(recording.take())
                    .singleElement()
                    .asString()
                    .startsWith("UPDATE")
                    .doesNotContain("pg_notify");
        } finally {
            silent.close();
        }
    }

    @Test
    void otherDatabasesSendNoNotices() {
        try (HikariDataSource h2 = TestDatabases.h2("notices")) {
            JpaIdempotencyStore store = TestDatabases.store(h2, Clock.systemUTC(), NOTICES);
            assertThat(store.notifySettlements(k -> {})).as("notices on H2").isFalse();
            store.close();
        }
    }

    /** The store's notices, once it listens (bounded: the first subscriber already waited for it). */
    private static SettlementNotices listening(JpaIdempotencyStore store) throws Exception {
        SettlementNotices notices = store.notices();
        assertThat(notices).as("the store's notices").isNotNull();
        awaitUntil(
                () -> notices.backendPid() != 0,
                5000,
                () -> "B listening: sessions " + notices.sessions() + ", backend " + notices.backendPid());
        return notices;
    }

    private static DelegatingStore counting(JpaIdempotencyStore store, AtomicInteger claims) {
        return new DelegatingStore(store) {
            @Override
            public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
                claims.incrementAndGet();
                return super.claim(key, owner, fingerprint, lease);
            }
        };
    }

    private static void awaitUntil(BooleanSupplier condition, long millis, Supplier<String> seen)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + millis + " ms: " + seen.get());
            }
            Thread.sleep(10);
        }
    }

    private static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }
}
