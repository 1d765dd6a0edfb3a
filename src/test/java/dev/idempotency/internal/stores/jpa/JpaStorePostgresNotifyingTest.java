package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The store contract on PostgreSQL with {@code idempotency.jpa.notify-settlements=true}: complete and
 * release then also hand their keys to the notifier ({@link SettlementNotifier}), and must answer and
 * fence exactly as without it; the store listens meanwhile.
 */
@Tag("services")
class JpaStorePostgresNotifyingTest extends AbstractJpaStoreTest {

    private static HikariDataSource ds;
    private static JpaIdempotencyStore store;

    @BeforeAll
    static void start() {
        ds = TestDatabases.postgres("idem_jpa_test_notifying");
        store = TestDatabases.store(ds, CLOCK, Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true"));
        if (!store.notifySettlements(key -> {})) {
            throw new IllegalStateException("the store does not listen for settlement notices");
        }
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
