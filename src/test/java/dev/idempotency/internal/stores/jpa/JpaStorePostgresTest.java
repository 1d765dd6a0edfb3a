package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The store contract on Postgres. */
@Tag("services")
class JpaStorePostgresTest extends AbstractJpaStoreTest {

    private static HikariDataSource ds;
    private static JpaIdempotencyStore store;

    @BeforeAll
    static void start() {
        ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA);
        store = TestDatabases.store(ds, CLOCK, Map.of());
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
