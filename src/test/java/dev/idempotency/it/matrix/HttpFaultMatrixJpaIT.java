package dev.idempotency.it.matrix;

import dev.idempotency.it.matrix.app.JoinedChargesResource;
import dev.idempotency.it.matrix.app.MatrixEffects;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * {@link HttpFaultMatrix} on the JPA store in the effects' PostgreSQL database: the {@code separate}
 * mode for {@code charges/*}, the joined mode for {@code joined/*}.
 */
class HttpFaultMatrixJpaIT extends HttpFaultMatrix {

    @Deployment
    static WebArchive deployment() {
        return deployment(
                "http-matrix-jpa.war",
                "idempotency.store=jpa",
                "idempotency.jpa.datasource=" + MatrixEffects.DATASOURCE,
                JoinedChargesResource.JOINED_CONFIG);
    }

    @Override
    boolean joinedMode() {
        return true;
    }
}
