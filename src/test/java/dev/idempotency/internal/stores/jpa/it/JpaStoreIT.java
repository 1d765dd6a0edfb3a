package dev.idempotency.internal.stores.jpa.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The JPA store on the server's default data source ({@code java:comp/DefaultDataSource}), with no
 * configuration but {@code idempotency.store=jpa}: H2 on Payara Micro, WildFly and Open Liberty (whose
 * server.xml defines it), embedded Derby on GlassFish.
 */
class JpaStoreIT extends AbstractJoinedJpaStoreIT {

    @Deployment
    static WebArchive deployment() {
        return deployment("jpa-store-it.war", null);
    }
}
