package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The watchdog that bounds the JPA store's lock waits on PostgreSQL, against a real server: a
 * statement still running at its deadline is cancelled (SQLState 57014, which the store reads as a
 * lock timeout) within one sweep of it; a statement whose watch ended is never cancelled, however long
 * it then runs; and the sweeper's thread exits once nothing is watched.
 */
@Tag("services")
class StatementWatchdogTest {

    private static final Duration SWEEP = Duration.ofMillis(20);

    @Test
    void aStatementPastItsDeadlineIsCancelledWithinOneSweep() throws Exception {
        StatementWatchdog watchdog = new StatementWatchdog(Duration.ofMillis(300), SWEEP, 5);
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
                Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT pg_sleep(10)")) {
            long tookMillis = executeUntilCancelled(watchdog, ps);
            assertThat(tookMillis)
                    .as("cancelled at the 300 ms deadline, not before")
                    .isBetween(300L, 3_000L);
            // The connection goes on: the cancel ended that statement only.
            try (PreparedStatement next = c.prepareStatement("SELECT 1")) {
                assertThat(next.executeQuery().next()).isTrue();
            }
        }
    }

    @Test
    void aStatementWhoseWatchEndedIsNeverCancelled() throws Exception {
        StatementWatchdog watchdog = new StatementWatchdog(Duration.ofMillis(100), SWEEP, 5);
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
                Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT pg_sleep(0.6)")) {
            watchdog.watch(ps).end();
            // Still in the queue until the next sweep: the sweeper must see that the watch ended, even
            // though its deadline passes while the statement runs.
            assertThat(ps.executeQuery().next())
                    .as("ran to its end, past the watch's deadline")
                    .isTrue();
        }
    }

    @Test
    void theSweeperStopsWhenNothingIsWatchedAndStartsAgainOnDemand() throws Exception {
        StatementWatchdog watchdog = new StatementWatchdog(Duration.ofSeconds(5), SWEEP, 5);
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
                Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT 1")) {
            for (int round = 1; round <= 2; round++) {
                StatementWatchdog.Watch watch = watchdog.watch(ps);
                assertThat(watchdog.sweeping())
                        .as("sweeping while a statement is watched (round %d)", round)
                        .isTrue();
                ps.executeQuery().close();
                watch.end();
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (watchdog.sweeping() && System.nanoTime() - deadline < 0) {
                    Thread.sleep(10);
                }
                assertThat(watchdog.sweeping())
                        .as("the sweeper exits within 10 s of the last watch (5 idle sweeps of 20 ms), round %d", round)
                        .isFalse();
            }
        }
    }

    @Test
    void aSweeperThatDiesLetsTheNextWatchStartAnother() throws Exception {
        StatementWatchdog watchdog = new StatementWatchdog(Duration.ofMillis(50), SWEEP, 5);
        // A driver whose cancel throws an Error: the sweeper's thread dies of it.
        Statement failing = (Statement) java.lang.reflect.Proxy.newProxyInstance(
                Statement.class.getClassLoader(), new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("cancel")) {
                        throw new LinkageError("a driver that throws an Error from cancel");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        watchdog.watch(failing); // never ended: the sweeper cancels it at its deadline, and dies
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (watchdog.sweeping() && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        assertThat(watchdog.sweeping())
                .as("the dead sweeper cleared its flag within 10 s")
                .isFalse();
        // The next statement is still bounded: a new sweeper cancels it at its deadline.
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
                Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT pg_sleep(10)")) {
            assertThat(executeUntilCancelled(watchdog, ps))
                    .as("cancelled by a new sweeper, not left to run its 10 s")
                    .isLessThan(3_000L);
        }
    }

    /**
     * Executes {@code ps} under a watch until the watchdog cancels it, asserting that it fails as a lock
     * timeout; returns how long it ran, in milliseconds.
     */
    private static long executeUntilCancelled(StatementWatchdog watchdog, PreparedStatement ps) {
        long started = System.nanoTime();
        StatementWatchdog.Watch watch = watchdog.watch(ps);
        try {
            assertThatThrownBy(ps::executeQuery)
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(SqlFailures.isTimeout(e))
                            .as("read as a lock timeout: %s", e)
                            .isTrue());
        } finally {
            watch.end();
        }
        return (System.nanoTime() - started) / 1_000_000;
    }
}
