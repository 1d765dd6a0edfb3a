package demo;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;

/**
 * The joined mode on Helidon's {@code JtaAdaptingDataSource} alone ({@code @Named("ordersjtaraw")}),
 * which hands out a new enlisted connection, a branch of its own, on each {@code getConnection()}: the
 * store's claim and its completion must still see each other (one connection of its own per
 * transaction), and the app's rows and the record still commit or roll back together.
 */
@HelidonTest
@AddConfig(key = "idempotency.store", value = "jpa")
@AddConfig(key = "idempotency.jpa.datasource", value = "ordersjtaraw")
@AddConfig(key = "demo.joined.datasource", value = "ordersjtaraw")
@AddConfig(key = "javax.sql.DataSource.orders.dataSourceClassName", value = "org.postgresql.ds.PGSimpleDataSource")
@AddConfig(
        key = "javax.sql.DataSource.orders.dataSource.url",
        value = "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=helidon_it")
@AddConfig(key = "javax.sql.DataSource.orders.dataSource.user", value = "postgres")
class JpaJoinedUnsharedTest extends JoinedChecks {}
