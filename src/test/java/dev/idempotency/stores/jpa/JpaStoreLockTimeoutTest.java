package dev.idempotency.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A claim that waits on a row lock longer than the lock timeout reports the key as in progress (the
 * caller gets 409 or waits) instead of failing, and does so within the bound. On PostgreSQL the bound
 * is {@code idempotency.jpa.lock-timeout}; MariaDB and H2 do not end a lock wait on a statement
 * timeout, so there the bound is the database's own lock wait timeout, set here the way
 * docs/jpa-store.md recommends. On PostgreSQL and H2 a live COMPLETED record is replayed from a plain
 * read, without waiting for a held row lock at all.
 */
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

    private static void lock(Connection blocker, String key) throws Exception {
        try (PreparedStatement ps =
                blocker.prepareStatement("SELECT idem_key FROM idempotency_record WHERE idem_key = ? FOR UPDATE")) {
            ps.setString(1, key);
            ps.executeQuery().close();
        }
    }

    private static void check(Supplier<HikariDataSource> db, boolean replayIgnoresRowLocks) throws Exception {
        try (HikariDataSource ds = db.get()) {
            MutableClock clock = new MutableClock();
            JpaIdempotencyStore store = TestDatabases.store(ds, clock, Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            try {
                String key = Hashing.sha256Hex("lock-timeout-" + System.nanoTime());
                // A live IN_PROGRESS claim: the only rows a duplicate decides on under the row lock.
                store.claim(key, "holder", "fp-holder", Duration.ofMinutes(1));
                try (Connection blocker = ds.getConnection()) {
                    blocker.setAutoCommit(false);
                    lock(blocker, key);
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
                ClaimResult after = store.claim(key, "late", "fp-late", Duration.ofMinutes(1));
                assertThat(after.claimed()).isFalse();
                assertThat(after.record().fingerprint())
                        .as("once the lock is gone the real record shows")
                        .isEqualTo("fp-holder");

                // A live COMPLETED record can only change by expiring: its replay needs no row lock, so
                // it does not wait for a lock held by anyone else.
                store.complete(key, "holder", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
                if (replayIgnoresRowLocks) {
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
