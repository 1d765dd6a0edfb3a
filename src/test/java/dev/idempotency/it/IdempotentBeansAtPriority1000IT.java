package dev.idempotency.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * {@link IdempotentBeansScenarios} with {@code idempotency.interceptor.priority=1000}: the guard runs
 * inside {@code @Transactional} (200). A second Payara Micro boot, because the priority is fixed per
 * deployment.
 */
class IdempotentBeansAtPriority1000IT extends IdempotentBeansScenarios {

    @Deployment
    static WebArchive deployment() {
        return deployment("beans-it-1000.war", "idempotency.interceptor.priority=1000");
    }

    @Override
    int priority() {
        return 1000;
    }
}
