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
 * docs/jpa-store.md recommends.
 */
class JpaStoreLockTimeoutTest {

    @Test
    void postgresql() throws Exception {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadb() throws Exception {
        check(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA, "?sessionVariables=innodb_lock_wait_timeout=1"));
    }

    @Test
    void h2() throws Exception {
        check(() -> TestDatabases.h2("lock-timeout", 1_000));
    }

    private static void check(Supplier<HikariDataSource> db) throws Exception {
        try (HikariDataSource ds = db.get()) {
            MutableClock clock = new MutableClock();
            JpaIdempotencyStore store = TestDatabases.store(ds, clock, Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            try {
                String key = Hashing.sha256Hex("lock-timeout-" + System.nanoTime());
                store.claim(key, "holder", "fp-holder", Duration.ofMinutes(1));
                store.complete(key, "holder", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
                try (Connection blocker = ds.getConnection()) {
                    blocker.setAutoCommit(false);
                    try (PreparedStatement ps = blocker.prepareStatement(
                            "SELECT idem_key FROM idempotency_record WHERE idem_key = ? FOR UPDATE")) {
                        ps.setString(1, key);
                        ps.executeQuery().close();
                    }
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
                ClaimResult after = store.claim(key, "late", "fp-holder", Duration.ofMinutes(1));
                assertThat(after.claimed()).isFalse();
                assertThat(after.record().status())
                        .as("once the lock is gone the real record shows")
                        .isEqualTo(RecordStatus.COMPLETED);
            } finally {
                store.close();
            }
        }
    }
}
