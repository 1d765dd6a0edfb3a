package dev.idempotency.internal.stores.jpa.it;

import dev.idempotency.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The JPA store on PostgreSQL: a JTA data source the application defines in its web.xml, named by
 * {@code idempotency.jpa.datasource}; the business rows of the joined mode are in the same database.
 */
class JpaStorePostgresIT extends AbstractJoinedJpaStoreIT {

    /** The application's data source. */
    static final String DATASOURCE = "java:app/jdbc/jpaIt";

    @Deployment
    static WebArchive deployment() {
        return Deployments.withPostgres(deployment("jpa-store-pg-it.war", DATASOURCE), DATASOURCE);
    }
}
