package dev.idempotency.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link IdempotentBeansScenarios} on the Infinispan store (a local cache), at the default priority. */
class IdempotentBeansInfinispanIT extends IdempotentBeansScenarios {

    @Deployment
    static WebArchive deployment() {
        return deployment("beans-it-ispn.war", "idempotency.store=infinispan")
                .addAsLibraries(Deployments.infinispanLibraries());
    }

    @Override
    int priority() {
        return 100;
    }
}
