package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A claim that waits on a lock longer than the lock timeout reports the key as in progress (the caller
 * gets 409 or waits) instead of failing, and does so within the bound ({@code
 * idempotency.jpa.lock-timeout}; on H2 its own {@code LOCK_TIMEOUT}, and on MariaDB the shorter of the
 * two and {@code innodb_lock_wait_timeout}, set here the way docs/jpa-store.md recommends). On
 * PostgreSQL and H2 a live record is polled and replayed from a plain read, without waiting for a held
 * row lock at all. Complete and release wait out a lock held longer than the lock timeout.
 */
@Tag("services")
class JpaStoreLockTimeoutTest {

    @Test
    void postgresql() throws Exception {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA), true);
    }

    @Test
    void mariadb() throws Exception {
        // InnoDB: the claim's INSERT of an existing key takes a shared lock on that row, so there the
        // duplicate waits for a held row lock before the store reads anything.
        check(
                () -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA, "?sessionVariables=innodb_lock_wait_timeout=1"),
                false);
    }

    @Test
    void h2() throws Exception {
        check(() -> TestDatabases.h2("lock-timeout", 1_000), true);
    }

    @Test
    void postgresqlCompleteAndReleaseOutlastARowLockHeldPastTheLockTimeout() throws Exception {
        outlast(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadbCompleteAndReleaseOutlastARowLockHeldPastTheLockTimeout() throws Exception {
        outlast(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA, "?sessionVariables=innodb_lock_wait_timeout=1"));
    }

    @Test
    void h2CompleteAndReleaseOutlastARowLockHeldPastTheLockTimeout() throws Exception {
        outlast(() -> TestDatabases.h2("lock-timeout-outlast", 1_000));
    }

    /**
     * The operation ran: its outcome must not be lost because a row lock was held longer than one lock
     * wait (the engine cannot store it later, and after the lease the operation would run again). So
     * complete and release wait out such a lock by retrying, bounded by time.
     */
    private static void outlast(Supplier<HikariDataSource> db) throws Exception {
        try (HikariDataSource ds = db.get()) {
            JpaIdempotencyStore store =
                    TestDatabases.store(ds, new MutableClock(), Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            try {
                String completed = Hashing.sha256Hex("outlast-complete-" + System.nanoTime());
                store.claim(completed, "owner", "fp", Duration.ofMinutes(1));
                long waited = whileLocked(ds, completed, () -> assertThat(store.complete(
                                completed, "owner", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .isTrue());
                assertThat(waited).as("complete waited for the lock").isGreaterThan(1_500L);
                assertThat(store.read(completed).orElseThrow().status()).isEqualTo(RecordStatus.COMPLETED);

                String released = Hashing.sha256Hex("outlast-release-" + System.nanoTime());
                store.claim(released, "owner", "fp", Duration.ofMinutes(1));
                waited = whileLocked(ds, released, () -> assertThat(store.release(released, "owner"))
                        .isTrue());
                assertThat(waited).as("release waited for the lock").isGreaterThan(1_500L);
                assertThat(store.read(released)).isEmpty();
            } finally {
                store.close();
            }
        }
    }

    /** Runs {@code call} while another transaction holds the row's lock for 2.5 s; returns the ms it took. */
    private static long whileLocked(HikariDataSource ds, String key, Runnable call) throws Exception {
        try (Connection blocker = ds.getConnection()) {
            blocker.setAutoCommit(false);
            lock(blocker, key);
            Thread unlocker = new Thread(() -> {
                try {
                    Thread.sleep(2_500);
                    blocker.rollback();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long started = System.nanoTime();
            unlocker.start();
            try {
                call.run();
            } finally {
                unlocker.join(30_000);
            }
            return (System.nanoTime() - started) / 1_000_000;
        }
    }

    private static void lock(Connection blocker, String key) throws Exception {
        try (PreparedStatement ps =
                blocker.prepareStatement("SELECT idem_key FROM idempotency_record WHERE idem_key = ? FOR UPDATE")) {
            ps.setString(1, key);
            ps.executeQuery().close();
        }
    }

    private static void check(Supplier<HikariDataSource> db, boolean readsIgnoreRowLocks) throws Exception {
        try (HikariDataSource ds = db.get()) {
            MutableClock clock = new MutableClock();
            JpaIdempotencyStore store = TestDatabases.store(ds, clock, Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            try {
                // Another transaction inserted the key and has not committed (a joined-mode caller): the
                // claim waits on that row, and reports the key in progress when the wait times out.
                String key = Hashing.sha256Hex("lock-timeout-" + System.nanoTime());
                try (Connection blocker = ds.getConnection()) {
                    blocker.setAutoCommit(false);
                    insertUncommitted(blocker, key);
                    long started = System.nanoTime();
                    ClaimResult r = store.claim(key, "waiter", "fp-waiter", Duration.ofMinutes(1));
                    long waitedMillis = (System.nanoTime() - started) / 1_000_000;

                    assertThat(r.claimed()).isFalse();
                    assertThat(r.record().status()).isEqualTo(RecordStatus.IN_PROGRESS);
                    assertThat(r.record().fingerprint())
                            .as("the caller's own fingerprint, so that a timeout is never a mismatch (422)")
                            .isEqualTo("fp-waiter");
                    assertThat(waitedMillis).as("waited about the lock timeout").isBetween(500L, 8_000L);
                    blocker.rollback();
                }
                assertThat(store.claim(key, "holder", "fp-holder", Duration.ofMinutes(1))
                                .claimed())
                        .as("once the uncommitted row is gone the key is free")
                        .isTrue();

                // A live IN_PROGRESS claim changes only by expiring or through its owner: a poll reads
                // it without a row lock, so a lock held on the row does not delay it (on InnoDB the
                // claim's INSERT IGNORE itself takes a shared lock on the existing row, so there it
                // waits, and times out as above).
                try (Connection blocker = ds.getConnection()) {
                    blocker.setAutoCommit(false);
                    lock(blocker, key);
                    long started = System.nanoTime();
                    ClaimResult r = store.claim(key, "waiter", "fp-waiter", Duration.ofMinutes(1));
                    long waitedMillis = (System.nanoTime() - started) / 1_000_000;
                    blocker.rollback();
                    assertThat(r.claimed()).isFalse();
                    assertThat(r.record().status()).isEqualTo(RecordStatus.IN_PROGRESS);
                    if (readsIgnoreRowLocks) {
                        assertThat(r.record().fingerprint()).isEqualTo("fp-holder");
                        assertThat(waitedMillis)
                                .as("polled without waiting for the lock")
                                .isLessThan(500L);
                    } else {
                        assertThat(r.record().fingerprint()).isEqualTo("fp-waiter");
                    }
                }

                // A live COMPLETED record can only change by expiring: its replay needs no row lock either.
                store.complete(key, "holder", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
                if (readsIgnoreRowLocks) {
                    assertReplayedWithoutWaiting(store, ds, key);
                }
                assertThat(store.claim(key, "again", "fp-holder", Duration.ofMinutes(1))
                                .record()
                                .status())
                        .isEqualTo(RecordStatus.COMPLETED);
            } finally {
                store.close();
            }
        }
    }

    private static void insertUncommitted(Connection blocker, String key) throws Exception {
        try (PreparedStatement ps = blocker.prepareStatement("INSERT INTO idempotency_record (idem_key, status,"
                + " owner_token, fingerprint, expires_at, outcome, created_at, updated_at)"
                + " VALUES (?, 'IN_PROGRESS', 'blocker', 'fp-blocker', ?, NULL, 0, 0)")) {
            ps.setString(1, key);
            ps.setLong(2, Long.MAX_VALUE / 2);
            ps.executeUpdate();
        }
    }

    private static void assertReplayedWithoutWaiting(JpaIdempotencyStore store, HikariDataSource ds, String key)
            throws Exception {
        try (Connection blocker = ds.getConnection()) {
            blocker.setAutoCommit(false);
            lock(blocker, key);
            long started = System.nanoTime();
            ClaimResult replay = store.claim(key, "waiter", "fp-holder", Duration.ofMinutes(1));
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;
            blocker.rollback();

            assertThat(replay.claimed()).isFalse();
            assertThat(replay.record().status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(replay.record().outcome()).isEqualTo("done".getBytes(StandardCharsets.UTF_8));
            assertThat(waitedMillis).as("replayed without waiting for the lock").isLessThan(500L);
        }
    }
}
