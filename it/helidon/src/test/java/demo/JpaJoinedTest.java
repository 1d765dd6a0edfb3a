package demo;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;

/**
 * The joined mode with Helidon's JTA (Narayana): the effect row and the record commit or roll back
 * together, on the JPA store over a JTA data source that is a CDI bean ({@code @Named("ordersjta")}):
 * the HikariCP pool, enlisted by Helidon's adapter, one connection per transaction.
 */
@HelidonTest
@AddConfig(key = "idempotency.store", value = "jpa")
@AddConfig(key = "idempotency.jpa.datasource", value = "ordersjta")
@AddConfig(key = "javax.sql.DataSource.orders.dataSourceClassName", value = "org.postgresql.ds.PGSimpleDataSource")
@AddConfig(
        key = "javax.sql.DataSource.orders.dataSource.url",
        value = "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=helidon_it")
@AddConfig(key = "javax.sql.DataSource.orders.dataSource.user", value = "postgres")
class JpaJoinedTest extends JoinedChecks {}
