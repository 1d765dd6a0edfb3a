package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Extension;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Checks the {@code idempotency.http.*} keys when the application deploys, so that an invalid value
 * fails the deployment with a message naming the key, instead of failing requests.
 */
public class HttpConfigCheck implements Extension {

    /** Creates the extension; CDI does this through {@link java.util.ServiceLoader}. */
    public HttpConfigCheck() {}

    void check(@Observes AfterDeploymentValidation adv) {
        try {
            HttpSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
        } catch (IdempotencyConfigurationException e) {
            adv.addDeploymentProblem(e);
        }
    }
}
