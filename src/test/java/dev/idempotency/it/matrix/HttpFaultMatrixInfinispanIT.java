package dev.idempotency.it.matrix;

import java.io.File;
import java.util.Arrays;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;

/** {@link HttpFaultMatrix} on the Infinispan store, a local cache, bundled as the README says. */
class HttpFaultMatrixInfinispanIT extends HttpFaultMatrix {

    @Deployment
    static WebArchive deployment() {
        File[] libs = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.infinispan:infinispan-core")
                .withTransitivity()
                .asFile();
        // The server provides the Jakarta Transactions API (README, "Several nodes").
        File[] kept = Arrays.stream(libs)
                .filter(f -> !f.getName().startsWith("jakarta.transaction-api"))
                .toArray(File[]::new);
        return deployment("http-matrix-ispn.war", "idempotency.store=infinispan")
                .addAsLibraries(kept);
    }

    @Override
    boolean joinedMode() {
        return false;
    }
}
