package dev.idempotency.internal.stores.jpa.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The JPA store on GlassFish's default data source, Derby (embedded, as {@code src/it/glassfish/setup.sh}
 * points {@code jdbc/__default} at it), with no configuration but {@code idempotency.store=jpa}: the
 * separate mode's tests. The store refuses the joined mode on Derby, so the joined tests run on the
 * other servers' default database ({@link JpaStoreIT}) and on PostgreSQL. Runs in the glassfish
 * profile only: on the other servers the default database is H2, which {@link JpaStoreIT} covers.
 */
class JpaStoreDerbyIT extends AbstractJpaStoreIT {

    @Deployment
    static WebArchive deployment() {
        return deployment("jpa-store-derby-it.war", null, false);
    }
}
