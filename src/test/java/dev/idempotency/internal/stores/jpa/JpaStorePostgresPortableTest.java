package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The store contract on PostgreSQL through the portable path ({@code idempotency.jpa.dialect=generic},
 * what a database without a dialect of its own gets): a plain INSERT whose duplicate-key error fails
 * it, then a plain SELECT, each autocommitted. Shows that path is correct on the strictest database,
 * which aborts a transaction on any error.
 */
@Tag("services")
class JpaStorePostgresPortableTest extends AbstractJpaStoreTest {

    private static HikariDataSource ds;
    private static JpaIdempotencyStore store;

    @BeforeAll
    static void start() {
        ds = TestDatabases.postgres("idem_jpa_test_portable");
        TestDatabases.store(ds, CLOCK, Map.of()).close(); // creates the table with the PostgreSQL DDL
        store = TestDatabases.store(ds, CLOCK, Map.of(JpaStoreSettings.DIALECT, "generic"));
    }

    @AfterAll
    static void stop() {
        store.close();
        ds.close();
    }

    @Override
    JpaIdempotencyStore jpaStore() {
        return store;
    }
}
