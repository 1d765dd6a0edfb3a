package dev.idempotency.it.toolkit;

import dev.idempotency.it.Deployments;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link ToolkitScenarios} on the JPA store in the tests' PostgreSQL database. */
class ToolkitOnJpaIT extends ToolkitScenarios {

    private static final String DATASOURCE = "java:app/jdbc/toolkit";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.withPostgres(
                deployment(
                        "toolkit-jpa-it.war",
                        "idempotency.store=jpa",
                        "idempotency.jpa.datasource=" + DATASOURCE,
                        "idempotency.application=toolkit-it-" + UUID.randomUUID()),
                DATASOURCE);
    }
}
