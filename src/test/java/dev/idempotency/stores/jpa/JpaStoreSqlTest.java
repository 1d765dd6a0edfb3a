package dev.idempotency.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.core.Hashing;
import dev.idempotency.spi.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The SQL the store sends, captured by a recording data source under Hibernate: a claim of a new key
 * is one INSERT and nothing else; {@code FOR UPDATE} appears only when the key exists; complete is one
 * fenced UPDATE and release one fenced DELETE, without any read. So a new key costs two statements.
 */
class JpaStoreSqlTest {

    private static final Pattern FOR_UPDATE = Pattern.compile("for (no key )?update");

    @Test
    void postgresqlCommonPathIsOneConflictFreeInsert() {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA), "on conflict (idem_key) do nothing");
    }

    @Test
    void mariadbCommonPathIsOneInsert() {
        check(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA), "insert into idempotency_record");
    }

    @Test
    void h2CommonPathIsOneInsert() {
        check(() -> TestDatabases.h2("sql"), "insert into idempotency_record");
    }

    private static void check(Supplier<HikariDataSource> db, String expectedInsert) {
        try (HikariDataSource ds = db.get()) {
            TestDatabases.Recording recording = new TestDatabases.Recording(ds);
            JpaIdempotencyStore store = TestDatabases.store(recording.dataSource, new MutableClock(), Map.of());
            try {
                String key = Hashing.sha256Hex("sql-test-" + System.nanoTime());
                recording.take();

                assertThat(store.claim(key, "owner-1", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                List<String> newKey = lower(recording.take());
                assertThat(newKey).as("SQL of a claim of a new key").hasSize(1);
                assertThat(newKey.get(0)).startsWith("insert").contains(expectedInsert);
                assertThat(newKey.get(0)).doesNotContainPattern(FOR_UPDATE);

                assertThat(store.claim(key, "owner-2", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isFalse();
                List<String> duplicate = lower(recording.take());
                assertThat(duplicate.get(0))
                        .as("the duplicate still tries the INSERT first")
                        .startsWith("insert");
                assertThat(duplicate)
                        .as("SQL of a duplicate claim")
                        .anySatisfy(sql -> assertThat(sql).startsWith("select").containsPattern(FOR_UPDATE));

                assertThat(store.complete(key, "owner-2", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .as("another owner's complete is fenced")
                        .isFalse();
                assertOneFencedStatement(recording.take(), "update", "complete by another owner");

                assertThat(store.complete(key, "owner-1", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                        .isTrue();
                assertOneFencedStatement(recording.take(), "update", "complete");

                String released = Hashing.sha256Hex("sql-test-release-" + System.nanoTime());
                assertThat(store.claim(released, "owner-3", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                recording.take();
                assertThat(store.release(released, "owner-3")).isTrue();
                assertOneFencedStatement(recording.take(), "delete", "release");

                store.read(key);
                assertThat(lower(recording.take()))
                        .as("a plain read takes no lock")
                        .noneSatisfy(sql -> assertThat(sql).containsPattern(FOR_UPDATE));
            } finally {
                store.close();
            }
        }
    }

    /** Exactly one statement of {@code verb}, fenced by key, owner and status: no read, no lock. */
    private static void assertOneFencedStatement(List<String> sql, String verb, String call) {
        List<String> statements = lower(sql);
        assertThat(statements).as("SQL of " + call).hasSize(1);
        assertThat(statements.get(0))
                .as("SQL of " + call)
                .startsWith(verb)
                .contains("idem_key")
                .contains("owner_token")
                .contains("status");
    }

    private static List<String> lower(List<String> sql) {
        return sql.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    }
}
