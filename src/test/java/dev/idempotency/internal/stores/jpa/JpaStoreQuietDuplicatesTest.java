package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A duplicate claim is a handled situation: nothing may log above DEBUG (no WARN or ERROR from the
 * store, the JDBC driver or a JPA provider), whatever the database, at the default logging levels.
 */
@Tag("services")
class JpaStoreQuietDuplicatesTest {

    @Test
    void postgresql() {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadb() {
        check(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void h2() {
        check(() -> TestDatabases.h2("quiet"));
    }

    private static void check(Supplier<HikariDataSource> db) {
        List<LogRecord> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    logged.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        Logger sqlErrors = Logger.getLogger("org.hibernate.engine.jdbc.spi.SqlExceptionHelper");
        Level sqlErrorsLevel = sqlErrors.getLevel();
        try (HikariDataSource ds = db.get()) {
            JpaIdempotencyStore store = TestDatabases.store(ds, new MutableClock(), Map.of());
            // The default levels, whatever other tests set.
            sqlErrors.setLevel(null);
            root.addHandler(capture);
            try {
                String running = Hashing.sha256Hex("quiet-running-" + System.nanoTime());
                String done = Hashing.sha256Hex("quiet-done-" + System.nanoTime());
                store.claim(running, "first", "fp", Duration.ofMinutes(1));
                store.claim(done, "first", "fp", Duration.ofMinutes(1));
                store.complete(done, "first", "x".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
                for (int i = 0; i < 20; i++) {
                    assertThat(store.claim(running, "dup-" + i, "fp", Duration.ofMinutes(1))
                                    .claimed())
                            .isFalse();
                    assertThat(store.claim(done, "dup-" + i, "fp", Duration.ofMinutes(1))
                                    .claimed())
                            .isFalse();
                }
            } finally {
                root.removeHandler(capture);
                sqlErrors.setLevel(sqlErrorsLevel);
                store.close();
            }
        }
        assertThat(logged)
                .as("records at WARNING or above while duplicates were claimed")
                .extracting(r -> r.getLoggerName() + ": " + r.getMessage())
                .isEmpty();
    }
}
