package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.BoundStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The SQL the store sends in the {@code separate} mode, captured by a recording data source: every
 * call is autocommitted (no explicit commit, so one round trip per statement); a claim of a new key
 * is one INSERT; a duplicate is that same statement and, where the database cannot return the
 * existing row from it, one plain SELECT; no call ever takes a row lock with {@code FOR UPDATE}, and
 * a poll of an IN_PROGRESS key writes nothing; complete is one fenced UPDATE and release one fenced
 * DELETE, without a read (on PostgreSQL with {@code idempotency.jpa.notify-settlements} too: the
 * notice leaves later, from the notifier's connection, whose one statement is left out here).
 */
@Tag("services")
class JpaStoreSqlTest {

    private static final Pattern FOR_UPDATE = Pattern.compile("for (no key )?update");

    @Test
    void postgresql() {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA), "on conflict (idem_key) do nothing", 1, false);
    }

    /** With settlement notices on, complete and release send them in their own statement: no round trip more. */
    @Test
    void postgresqlWithSettlementNotices() {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA), "on conflict (idem_key) do nothing", 1, true);
    }

    @Test
    void mariadb() {
        check(
                () -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA),
                "insert ignore into idempotency_record",
                2,
                false);
    }

    @Test
    void h2() {
        check(() -> TestDatabases.h2("sql"), "insert into idempotency_record", 2, false);
    }

    /**
     * PostgreSQL's claim is one statement that inserts, or else returns the existing row; the lookup
     * branch is guarded by a one-time filter on the insert, so a new key does not look itself up (an
     * index probe per new key that the floor does not pay). EXPLAIN ANALYZE of the store's own
     * statement shows it: the lookup is never executed for a new key, and executed for a duplicate.
     */
    @Test
    void postgresqlNewKeyClaimDoesNotRunItsLookup() throws Exception {
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA)) {
            TestDatabases.store(ds, new MutableClock(), Map.of()).close();
            String key = Hashing.sha256Hex("sql-test-plan-" + System.nanoTime());
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try {
                    String newKey = lookupLine(explainClaim(c, key));
                    String duplicate = lookupLine(explainClaim(c, key));
                    assertThat(newKey).as("the lookup of a new key's claim").contains("never executed");
                    assertThat(duplicate)
                            .as("the lookup of a duplicate's claim")
                            .doesNotContain("never executed")
                            .contains("rows=1");
                } finally {
                    c.rollback();
                }
            }
        }
    }

    private static List<String> explainClaim(Connection c, String key) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF) " + Dialect.POSTGRESQL.claim())) {
            ps.setString(1, key);
            ps.setString(2, "IN_PROGRESS");
            ps.setString(3, "owner-1");
            ps.setString(4, "fp");
            ps.setLong(5, System.currentTimeMillis() + 60_000);
            ps.setLong(6, System.currentTimeMillis());
            ps.setLong(7, System.currentTimeMillis());
            ps.setString(8, key);
            List<String> plan = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.add(rs.getString(1));
                }
            }
            return plan;
        }
    }

    /** The plan line of the read of idempotency_record (the lookup branch), not the INSERT's. */
    private static String lookupLine(List<String> plan) {
        return plan.stream()
                .filter(line -> line.contains("Scan") && line.contains("on idempotency_record"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no scan of idempotency_record in the plan: " + plan));
    }

    /**
     * The joined mode on PostgreSQL: the claim runs under a savepoint (a failed lock wait must not abort
     * the caller's transaction), and the savepoint, the claim and the release go as one statement, so a
     * new key costs one round trip and its completion one more, inside the caller's transaction.
     */
    @Test
    void postgresqlJoinedClaimIsOneRoundTrip() throws Exception {
        String operation = "sql-test.joined";
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA)) {
            TestDatabases.Recording recording = new TestDatabases.Recording(ds);
            TestDatabases.Joined joined = TestDatabases.joined(
                    recording.dataSource, new MutableClock(), Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true"));
            try {
                IdempotencyStore store = BoundStore.of(joined.store(), operation, Participation.JOINED);
                String key = Hashing.sha256Hex("sql-test-joined-" + System.nanoTime());
                recording.take();

                joined.tx().begin();
                assertThat(store.claim(key, "owner-1", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                List<String> claim = lower(recording.take());
                assertThat(claim).as("SQL of a joined claim of a new key").hasSize(1);
                assertThat(claim.get(0))
                        .startsWith("savepoint idempotency_claim;")
                        .contains("on conflict (idem_key) do nothing")
                        .endsWith("; release savepoint idempotency_claim");
                assertThat(store.complete(key, "owner-1", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .isTrue();
                assertOneFencedStatement(recording.take(), "update", "joined complete", true);
                joined.tx().commit();
                recording.take();

                joined.tx().begin();
                ClaimResult replay = store.claim(key, "owner-2", "fp", Duration.ofMinutes(1));
                List<String> replaySql = lower(recording.take());
                joined.tx().commit();
                assertThat(replay.claimed()).isFalse();
                assertThat(replay.record().status()).isEqualTo(RecordStatus.COMPLETED);
                assertThat(new String(replay.record().outcome(), StandardCharsets.UTF_8))
                        .isEqualTo("done");
                assertThat(replaySql).as("SQL of a joined replay").hasSize(1);
                assertThat(replaySql.get(0)).startsWith("savepoint idempotency_claim;");
            } finally {
                joined.close();
            }
        }
    }

    private static void check(
            Supplier<HikariDataSource> db, String expectedInsert, int duplicateStatements, boolean notifies) {
        try (HikariDataSource ds = db.get()) {
            TestDatabases.Recording recording = new TestDatabases.Recording(ds);
            MutableClock clock = new MutableClock();
            JpaIdempotencyStore store = TestDatabases.store(
                    recording.dataSource,
                    clock,
                    notifies ? Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true") : Map.of());
            try {
                String key = Hashing.sha256Hex("sql-test-" + System.nanoTime());
                recording.take();

                assertThat(store.claim(key, "owner-1", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                List<String> newKey = lower(recording.take());
                assertThat(newKey).as("SQL of a claim of a new key").hasSize(1);
                assertThat(newKey.get(0)).contains(expectedInsert);

                assertThat(store.claim(key, "owner-2", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isFalse();
                List<String> poll = lower(recording.take());
                assertThat(poll).as("SQL of a poll of an IN_PROGRESS key").hasSize(duplicateStatements);
                assertThat(poll.get(0)).as("the poll tries the claim first").contains(expectedInsert);
                assertThat(poll).as("a poll takes no lock").noneSatisfy(sql -> assertThat(sql)
                        .containsPattern(FOR_UPDATE));

                assertThat(store.complete(key, "owner-2", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .as("another owner's complete is fenced")
                        .isFalse();
                assertOneFencedStatement(recording.take(), "update", "complete by another owner", notifies);

                assertThat(store.complete(key, "owner-1", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .isTrue();
                assertOneFencedStatement(recording.take(), "update", "complete", notifies);

                assertThat(store.claim(key, "owner-3", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isFalse();
                List<String> replay = lower(recording.take());
                assertThat(replay).as("SQL of a replay").hasSize(duplicateStatements);
                assertThat(replay).noneSatisfy(sql -> assertThat(sql).containsPattern(FOR_UPDATE));

                String released = Hashing.sha256Hex("sql-test-release-" + System.nanoTime());
                assertThat(store.claim(released, "owner-4", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                recording.take();
                assertThat(store.release(released, "owner-4")).isTrue();
                assertOneFencedStatement(recording.take(), "delete", "release", notifies);

                String ended = Hashing.sha256Hex("sql-test-takeover-" + System.nanoTime());
                store.claim(ended, "owner-5", "fp", Duration.ofSeconds(1));
                clock.advance(Duration.ofSeconds(2));
                recording.take();
                assertThat(store.claim(ended, "owner-6", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                List<String> takeover = lower(recording.take());
                assertThat(takeover)
                        .as("a takeover is the claim, the read, and one UPDATE conditional on the ended lease")
                        .hasSize(duplicateStatements + 1);
                assertThat(takeover.get(takeover.size() - 1))
                        .startsWith("update")
                        .contains("expires_at <= ?")
                        .as("the database's clock decides too, in the same statement")
                        .contains("current_timestamp");
                assertThat(takeover).noneSatisfy(sql -> assertThat(sql).containsPattern(FOR_UPDATE));

                store.read(key);
                assertThat(lower(recording.take())).as("a read").hasSize(1).noneSatisfy(sql -> assertThat(sql)
                        .containsPattern(FOR_UPDATE));
            } finally {
                store.close();
            }
        }
    }

    /**
     * Exactly one statement of {@code verb}, fenced by key, owner and status: no read, no lock, no commit.
     * Where the store {@code notifies} (PostgreSQL), still no notice in it: the notifier sends it after.
     */
    private static void assertOneFencedStatement(List<String> sql, String verb, String call, boolean notifies) {
        List<String> statements = lower(sql);
        assertThat(statements).as("SQL of " + call).hasSize(1);
        assertThat(statements.get(0))
                .as("SQL of " + call)
                .startsWith(verb)
                .contains("idem_key")
                .contains("owner_token")
                .contains("status")
                .doesNotContain("pg_notify");
    }

    /** The calls' statements, without the notifier's, which its own thread prepares when it first sends. */
    private static List<String> lower(List<String> sql) {
        return sql.stream()
                .filter(s -> !s.equals(SettlementNotifier.SQL))
                .map(s -> s.toLowerCase(Locale.ROOT))
                .toList();
    }
}
