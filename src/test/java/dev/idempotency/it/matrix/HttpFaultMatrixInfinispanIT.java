package dev.idempotency.it.matrix;

import dev.idempotency.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link HttpFaultMatrix} on the Infinispan store, a local cache, bundled as the README says. */
class HttpFaultMatrixInfinispanIT extends HttpFaultMatrix {

    @Deployment
    static WebArchive deployment() {
        return deployment("http-matrix-ispn.war", "idempotency.store=infinispan")
                .addAsLibraries(Deployments.infinispanLibraries());
    }

    @Override
    boolean joinedMode() {
        return false;
    }
}
