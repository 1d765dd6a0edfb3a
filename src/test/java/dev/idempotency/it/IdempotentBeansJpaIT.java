package dev.idempotency.it;

import dev.idempotency.it.app.Effects;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * {@link IdempotentBeansScenarios} on the JPA store in the effects' PostgreSQL database ({@code
 * separate} mode; the joined mode's CDI and EJB cases are {@code JpaStorePostgresIT}'s), at the default
 * interceptor priority.
 */
class IdempotentBeansJpaIT extends IdempotentBeansScenarios {

    @Deployment
    static WebArchive deployment() {
        return deployment(
                "beans-it-jpa.war", "idempotency.store=jpa", "idempotency.jpa.datasource=" + Effects.DATASOURCE);
    }

    @Override
    int priority() {
        return 100;
    }
}
