package dev.idempotency.it.fault;

import dev.idempotency.TestServices;
import dev.idempotency.it.fault.app.SettlementsResource;
import dev.idempotency.stores.TcpProxy;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * {@link StoreFaultScenarios} on the JPA store ({@code separate} mode), its data source's connections to
 * PostgreSQL through the proxy; the pool is the server's own, with its default settings (no validation).
 */
class JpaStoreFaultIT extends StoreFaultScenarios {

    private static final int PROXY_PORT = TestServices.port(15434);

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException, SQLException {
        proxy = new TcpProxy(PROXY_PORT, 5432);
        return deployment(
                "fault-jpa-it.war",
                "idempotency.store=jpa\nidempotency.jpa.datasource=" + SettlementsResource.STORE + "\n",
                Map.of(SettlementsResource.STORE, PROXY_PORT));
    }
}
