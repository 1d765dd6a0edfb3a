package dev.idempotency.it.fault;

import dev.idempotency.TestServices;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.fault.app.SettlementsResource;
import dev.idempotency.stores.TcpProxy;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * {@link StoreFaultScenarios} on the JPA store ({@code separate} mode), its data source's connections to
 * PostgreSQL through the proxy. On Payara Micro the data source is the WAR's own ({@code web.xml}), with
 * the pool's default settings (no validation); on WildFly it is the one docs/servers.md's recipe adds to
 * the server ({@code src/it/wildfly/postgres-datasource.sh}, applied by setup.sh on this proxy's port).
 */
class JpaStoreFaultIT extends StoreFaultScenarios {

    private static final int PROXY_PORT = TestServices.port(15434);

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException, SQLException {
        proxy = new TcpProxy(PROXY_PORT, 5432);
        if (Deployments.server().equals("wildfly")) {
            return deployment(
                    "fault-jpa-it.war",
                    "idempotency.store=jpa\nidempotency.jpa.datasource=java:jboss/datasources/IdempotencyStore\n",
                    Map.of());
        }
        return deployment(
                "fault-jpa-it.war",
                "idempotency.store=jpa\nidempotency.jpa.datasource=" + SettlementsResource.STORE + "\n",
                Map.of(SettlementsResource.STORE, PROXY_PORT));
    }
}
