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
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code joined} mode on each database, with a caller's transaction as a JTA container gives it to
 * the store (bound to the thread, begun and ended by the caller) and the operation's effects written in
 * that transaction to a table without a unique constraint, so that a double shows as two rows.
 *
 * <p>Connections come straight from the driver (see {@link SwitchableDataSource#unpooled}). The case
 * the docs promise: a duplicate waits while the first caller's transaction holds the key,
 * longer than the lock timeout, and then replays; its own transaction stays usable throughout (on
 * PostgreSQL a timed-out statement would abort the whole transaction, and every later poll would fail
 * with 25P02).
 */
@Tag("services")
class JpaStoreJoinedModeTest {

    private static final String OPERATION = "joined-test.place";
    private static final byte[] OUTCOME = "placed".getBytes(StandardCharsets.UTF_8);

    @Test
    void postgresqlDuplicateWaitsPastTheLockTimeoutThenReplays() throws Exception {
        waitsPastTheLockTimeoutThenReplays(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadbDuplicateWaitsPastTheLockTimeoutThenReplays() throws Exception {
        waitsPastTheLockTimeoutThenReplays(
                () -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA, "?sessionVariables=innodb_lock_wait_timeout=1"));
    }

    @Test
    void h2DuplicateWaitsPastTheLockTimeoutThenReplays() throws Exception {
        waitsPastTheLockTimeoutThenReplays(() -> TestDatabases.h2("joined", 1_000));
    }

    @Test
    void postgresqlRollbackFreesTheKeyForTheWaitingDuplicate() throws Exception {
        rollbackFreesTheKey(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadbRollbackFreesTheKeyForTheWaitingDuplicate() throws Exception {
        rollbackFreesTheKey(
                () -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA, "?sessionVariables=innodb_lock_wait_timeout=1"));
    }

    @Test
    void postgresqlToolkitRecordsStaySeparateUnderAGlobalJoinedMode() throws Exception {
        toolkitRecordsStaySeparate(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadbToolkitRecordsStaySeparateUnderAGlobalJoinedMode() throws Exception {
        toolkitRecordsStaySeparate(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA));
    }

    private static OperationPolicy policy() {
        return new OperationPolicy(
                OPERATION,
                Duration.ofHours(1),
                Duration.ofSeconds(60),
                InProgressPolicy.WAIT,
                ExceptionPolicy.DEFAULT,
                true,
                Participation.JOINED);
    }

    private static void waitsPastTheLockTimeoutThenReplays(Supplier<HikariDataSource> db) throws Exception {
        try (HikariDataSource pool = db.get()) {
            DataSource ds = SwitchableDataSource.unpooled(pool);
            effectsTable(ds);
            TestDatabases.Joined joined =
                    TestDatabases.joined(ds, new MutableClock(), Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            ExecutorService threads = Executors.newSingleThreadExecutor();
            try {
                IdempotencyEngine engine = new IdempotencyEngine(joined.store());
                RecordKey key = RecordKey.of(OPERATION, "", "order-" + System.nanoTime());
                CountDownLatch claimed = new CountDownLatch(1);
                Future<Admission> first = threads.submit(() -> {
                    joined.tx().begin();
                    try {
                        Admission c = engine.begin(policy(), key, "fp");
                        joined.tx().insertEffect(key.hash());
                        claimed.countDown();
                        // Holds the key well past the lock timeout (1 s) before it completes and commits.
                        Thread.sleep(2_500);
                        engine.complete((Admission.Owned) c, OUTCOME);
                        joined.tx().commit();
                        return c;
                    } catch (Exception | Error e) {
                        claimed.countDown();
                        joined.tx().rollback();
                        throw e;
                    }
                });
                assertThat(claimed.await(30, TimeUnit.SECONDS))
                        .as("the first caller claimed")
                        .isTrue();

                joined.tx().begin();
                Admission dup;
                try {
                    dup = engine.begin(policy(), key, "fp");
                    // The duplicate's transaction must still be usable after its waits timed out.
                    joined.tx().insertEffect(key.hash() + "-dup");
                    joined.tx().commit();
                } catch (RuntimeException e) {
                    joined.tx().rollback();
                    throw e;
                }
                assertThat(first.get(60, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
                assertThat(dup).as("the duplicate waited and replayed").isInstanceOf(Admission.Replay.class);
                assertThat(((Admission.Replay) dup).outcome()).isEqualTo(OUTCOME);
                assertThat(effects(ds, key.hash()))
                        .as("the operation's effect, once")
                        .isEqualTo(1);
                assertThat(effects(ds, key.hash() + "-dup"))
                        .as("the duplicate's own transaction committed")
                        .isEqualTo(1);
                IdempotencyRecord stored = joined.store().read(key.storeKey()).orElseThrow();
                assertThat(stored.status()).isEqualTo(RecordStatus.COMPLETED);
            } finally {
                threads.shutdownNow();
                joined.close();
            }
        }
    }

    private static void rollbackFreesTheKey(Supplier<HikariDataSource> db) throws Exception {
        try (HikariDataSource pool = db.get()) {
            DataSource ds = SwitchableDataSource.unpooled(pool);
            effectsTable(ds);
            TestDatabases.Joined joined =
                    TestDatabases.joined(ds, new MutableClock(), Map.of(JpaStoreSettings.LOCK_TIMEOUT, "PT1S"));
            ExecutorService threads = Executors.newSingleThreadExecutor();
            try {
                IdempotencyEngine engine = new IdempotencyEngine(joined.store());
                RecordKey key = RecordKey.of(OPERATION, "", "order-" + System.nanoTime());
                CountDownLatch claimed = new CountDownLatch(1);
                Future<Admission> first = threads.submit(() -> {
                    joined.tx().begin();
                    try {
                        Admission c = engine.begin(policy(), key, "fp");
                        joined.tx().insertEffect(key.hash());
                        claimed.countDown();
                        Thread.sleep(1_500);
                        return c;
                    } finally {
                        claimed.countDown();
                        // The method failed: its transaction rolls back, with the claim.
                        joined.tx().rollback();
                    }
                });
                assertThat(claimed.await(30, TimeUnit.SECONDS)).isTrue();

                joined.tx().begin();
                Admission dup;
                try {
                    dup = engine.begin(policy(), key, "fp");
                    assertThat(dup).as("the key is free after the rollback").isInstanceOf(Admission.Owned.class);
                    joined.tx().insertEffect(key.hash());
                    engine.complete((Admission.Owned) dup, OUTCOME);
                    joined.tx().commit();
                } catch (RuntimeException | Error e) {
                    joined.tx().rollback();
                    throw e;
                }
                assertThat(first.get(60, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
                assertThat(effects(ds, key.hash()))
                        .as("only the duplicate's effect committed")
                        .isEqualTo(1);
                assertThat(joined.store().read(key.storeKey()).orElseThrow().outcome())
                        .isEqualTo(OUTCOME);
            } finally {
                threads.shutdownNow();
                joined.close();
            }
        }
    }

    /**
     * Message attempts, one-time tokens and cluster locks call the store directly, outside any guarded
     * operation: their records must commit on their own even when every operation is joined, or a
     * consumer's rollback would undo its attempt count and the attempt limit would never be reached.
     */
    private static void toolkitRecordsStaySeparate(Supplier<HikariDataSource> db) throws Exception {
        try (HikariDataSource pool = db.get()) {
            DataSource ds = SwitchableDataSource.unpooled(pool);
            TestDatabases.Joined joined = TestDatabases.joined(ds, new MutableClock(), Map.of());
            try {
                String attempt = Hashing.sha256Hex("toolkit-" + System.nanoTime());
                joined.tx().begin();
                try {
                    assertThat(joined.store()
                                    .claim(attempt, "delivery-1", "fp", Duration.ofMinutes(5))
                                    .claimed())
                            .isTrue();
                } finally {
                    joined.tx().rollback();
                }
                assertThat(joined.store().read(attempt))
                        .as("the toolkit's record survived the caller's rollback")
                        .isPresent();
            } finally {
                joined.close();
            }
        }
    }

    private static void effectsTable(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS joined_effects (name VARCHAR(100) NOT NULL)");
        }
    }

    private static int effects(DataSource ds, String name) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM joined_effects WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
