package dev.idempotency.it.fault;

import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.TcpProxy;
import dev.idempotency.internal.stores.jpa.PostgresServer;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.fault.app.SettlementsResource;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * {@link StoreFaultScenarios} on the JPA store ({@code separate} mode), its data source's connections to
 * a PostgreSQL server of the test's own ({@link PostgresServer}) through the proxy; and that server
 * crashed and started again. On Payara Micro 6 the data source is the WAR's own ({@code web.xml}), with
 * the pool's default settings (no validation); on WildFly, GlassFish, Open Liberty and Payara Micro 7 it
 * is the one docs/servers.md's recipe for that server adds, as written there ({@code src/it/recipe.sh},
 * applied by each server's setup.sh on this proxy's port).
 */
class JpaStoreFaultIT extends StoreFaultScenarios {

    private static final int PROXY_PORT = TestServices.port(15434);
    private static final int STORE_PORT = TestServices.port(15436);

    /** The data source docs/servers.md's recipe adds to each server but Payara Micro (setup.sh). */
    private static final Map<String, String> RECIPE_DATA_SOURCES = Map.of(
            "wildfly", "java:jboss/datasources/IdempotencyStore",
            "glassfish", "jdbc/IdempotencyStore",
            "payara7", "jdbc/IdempotencyStore",
            "liberty", "jdbc/IdempotencyStore");

    private static PostgresServer store;

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException, SQLException {
        store = PostgresServer.start(STORE_PORT);
        proxy = new TcpProxy(PROXY_PORT, STORE_PORT);
        String recipe = RECIPE_DATA_SOURCES.get(System.getProperty("it.reports", Deployments.server()));
        if (recipe != null) {
            return deployment(
                    "fault-jpa-it.war", "idempotency.store=jpa\nidempotency.jpa.datasource=" + recipe + "\n", Map.of());
        }
        return deployment(
                "fault-jpa-it.war",
                "idempotency.store=jpa\nidempotency.jpa.datasource=" + SettlementsResource.STORE + "\n",
                Map.of(SettlementsResource.STORE, PROXY_PORT));
    }

    /**
     * The store's PostgreSQL stopped at once ({@code pg_ctl -m immediate}: no checkpoint, every
     * connection cut, as in a crash) after the business commit and before the outcome is stored, and
     * started again 1 s later (it recovers from its WAL), for 50 keys: every request answered 201 once
     * the database is back, every retry replays, one effect row per key.
     */
    @Test
    void aStoreDatabaseCrashAfterTheBusinessCommitRunsNoKeyTwice() throws Exception {
        assertEveryRetryReplays(settleThrough("crash", 2, () -> {
            store.stopImmediately();
            Thread.sleep(1_000);
            store.start();
        }));
    }
}
