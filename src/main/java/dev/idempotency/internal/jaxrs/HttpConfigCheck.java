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

    /**
     * Checks the {@code idempotency.http.*} keys: for the build-compatible extension, which does this
     * extension's work where only CDI Lite runs.
     *
     * @throws IdempotencyConfigurationException naming the first invalid key and its fix
     */
    public static void checkKeys(dev.idempotency.spi.ConfigLookup settings) {
        HttpSettings.from(settings);
    }

    void check(@Observes AfterDeploymentValidation adv) {
        try {
            HttpSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
        } catch (IdempotencyConfigurationException e) {
            adv.addDeploymentProblem(e);
        }
    }
}
