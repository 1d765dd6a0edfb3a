package demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import org.junit.jupiter.api.Test;

/**
 * The README's checks on the JPA store, on PostgreSQL through a data source that is a CDI bean
 * ({@code @Named("orders")}, Helidon's HikariCP integration), not a JNDI name.
 */
@HelidonTest
@AddConfig(key = "idempotency.store", value = "jpa")
@AddConfig(key = "idempotency.jpa.datasource", value = "orders")
@AddConfig(key = "javax.sql.DataSource.orders.dataSourceClassName", value = "org.postgresql.ds.PGSimpleDataSource")
@AddConfig(
        key = "javax.sql.DataSource.orders.dataSource.url",
        value = "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=helidon_it")
@AddConfig(key = "javax.sql.DataSource.orders.dataSource.user", value = "postgres")
class JpaStoreTest extends GuardChecks {

    @Test
    void theRecordsAreInTheDataSourcesTable() {
        Http.post(base(), "orders", key(), order(ref(), 100, 0));
        assertTrue(Db.records() >= 1, "rows in helidon_it.idempotency_record after a guarded call");
    }
}
