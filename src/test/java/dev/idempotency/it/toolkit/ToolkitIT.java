package dev.idempotency.it.toolkit;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** {@link ToolkitScenarios} on the memory store (the default), on every server of the Maven profiles. */
class ToolkitIT extends ToolkitScenarios {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return deployment("toolkit-it.war");
    }
}
