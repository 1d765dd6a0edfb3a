package dev.idempotency.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link IdempotentBeansScenarios} at the default interceptor priority (100, outside @Transactional). */
class IdempotentBeansIT extends IdempotentBeansScenarios {

    @Deployment
    static WebArchive deployment() {
        return deployment("beans-it.war");
    }

    @Override
    int priority() {
        return 100;
    }
}
