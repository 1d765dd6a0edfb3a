package dev.idempotency.it.toolkit;

import dev.idempotency.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link ToolkitScenarios} on the Infinispan store (a local cache, in the server's JVM). */
class ToolkitOnInfinispanIT extends ToolkitScenarios {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return deployment("toolkit-ispn-it.war", "idempotency.store=infinispan")
                .addAsLibraries(Deployments.infinispanLibraries());
    }
}
