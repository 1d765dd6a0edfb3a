package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.internal.stores.OptionalStores;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Registers the Infinispan store as the CDI bean {@code @Named("infinispan") IdempotencyStore} when
 * {@code idempotency.store=infinispan} and Infinispan is on the deployment's class path, and starts
 * it with the deployment, so that the node joins its cluster (or fails on a bad configuration)
 * before it serves requests.
 *
 * <p>This class must stay free of Infinispan types, in its fields, method signatures and bodies:
 * the container loads and inspects it in every deployment, including those without Infinispan. The
 * store is built by {@link InfinispanStoreBean}, which is loaded only once Infinispan is known to
 * be present.
 */
public class InfinispanStoreExtension implements Extension {

    /** A class that exists exactly when infinispan-core is deployed. */
    private static final String PROBE = "org.infinispan.manager.EmbeddedCacheManager";

    private boolean registered;

    /** Created by the container through {@code ServiceLoader}. */
    public InfinispanStoreExtension() {}

    void register(@Observes AfterBeanDiscovery abd) {
        if (OptionalStores.selected(InfinispanStores.NAME)) {
            registered = OptionalStores.register(
                    abd,
                    InfinispanStoreExtension.class,
                    InfinispanStores.NAME,
                    PROBE,
                    "org.infinispan:infinispan-core 16.1.x",
                    InfinispanStoreBean::create,
                    InfinispanStoreBean::dispose);
        }
    }

    void start(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        if (registered) {
            OptionalStores.start(adv, bm, InfinispanStores.NAME);
        }
    }
}
