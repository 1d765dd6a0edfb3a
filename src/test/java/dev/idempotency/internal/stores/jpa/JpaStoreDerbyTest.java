package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract on embedded Derby (GlassFish's and Liberty's classic default database). */
class JpaStoreDerbyTest extends AbstractJpaStoreTest {

    private static HikariDataSource ds;
    private static JpaIdempotencyStore store;

    @BeforeAll
    static void start() {
        ds = TestDatabases.derby("contract");
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
