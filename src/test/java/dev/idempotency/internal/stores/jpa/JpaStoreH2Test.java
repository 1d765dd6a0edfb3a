package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract on H2. */
class JpaStoreH2Test extends AbstractJpaStoreTest {

    private static HikariDataSource ds;
    private static JpaIdempotencyStore store;

    @BeforeAll
    static void start() {
        ds = TestDatabases.h2("contract");
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
