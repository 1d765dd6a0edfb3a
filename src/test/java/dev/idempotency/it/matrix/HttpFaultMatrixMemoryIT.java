package dev.idempotency.it.matrix;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link HttpFaultMatrix} on the memory store (the default). */
class HttpFaultMatrixMemoryIT extends HttpFaultMatrix {

    @Deployment
    static WebArchive deployment() {
        return deployment("http-matrix-memory.war", "idempotency.store=memory");
    }

    @Override
    boolean joinedMode() {
        return false;
    }
}
