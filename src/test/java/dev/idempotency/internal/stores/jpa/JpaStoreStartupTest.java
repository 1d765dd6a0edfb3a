package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.MutableClock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A store configuration with which every call would fail is refused when the store starts (which in a
 * container fails the deployment), with a message that names the config key and the fix: never a
 * store that starts and answers 503 to every call.
 */
class JpaStoreStartupTest {

    @Test
    void aMissingTableWithCreateTableOffIsRefused() {
        try (HikariDataSource ds = TestDatabases.h2("startup-no-table-" + System.nanoTime())) {
            assertThatThrownBy(() -> start(ds, Map.of(JpaStoreSettings.CREATE_TABLE, "false")))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining("idempotency_record")
                    .hasMessageContaining(JpaStoreSettings.CREATE_TABLE);
        }
    }

    @Test
    void aDatabaseWithoutShippedDdlAndWithoutTheTableIsRefused() {
        try (HikariDataSource ds = TestDatabases.h2("startup-generic-" + System.nanoTime())) {
            assertThatThrownBy(() -> start(ds, Map.of(JpaStoreSettings.DIALECT, "generic")))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining("idempotency_record")
                    .hasMessageContaining(JpaStoreSettings.DIALECT);
        }
    }

    @Test
    void aDialectThatIsNotTheDatabasesIsRefused() {
        try (HikariDataSource ds = TestDatabases.h2("startup-wrong-dialect-" + System.nanoTime())) {
            assertThatThrownBy(() -> start(ds, Map.of(JpaStoreSettings.DIALECT, "mysql")))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(JpaStoreSettings.DIALECT)
                    .hasMessageContaining("H2");
        }
    }

    @Test
    void anUnreachableDataSourceIsRefused() {
        try (HikariDataSource ds = TestDatabases.h2("startup-down-" + System.nanoTime())) {
            SwitchableDataSource down = new SwitchableDataSource(ds);
            down.down();
            assertThatThrownBy(() -> start(down, Map.of()))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(JpaStoreSettings.DATASOURCE)
                    .hasMessageContaining("Connection refused");
        }
    }

    private static void start(javax.sql.DataSource ds, Map<String, String> config) {
        JpaStores.resourceLocal(ds, JpaStoreSettings.from(ConfigLookup.of(config)), new MutableClock())
                .close();
    }
}
