package dev.idempotency.stores.infinispan;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.inject.Singleton;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

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

    private static final System.Logger LOG = System.getLogger(InfinispanStoreExtension.class.getName());

    /** A class that exists exactly when infinispan-core is deployed. */
    private static final String PROBE = "org.infinispan.manager.EmbeddedCacheManager";

    private boolean registered;

    /** Created by the container through {@code ServiceLoader}. */
    public InfinispanStoreExtension() {}

    void register(@Observes AfterBeanDiscovery abd) {
        String store = ConfigProvider.getConfig()
                .getOptionalValue(GlobalSettings.STORE, String.class)
                .map(String::trim)
                .orElse(GlobalSettings.DEFAULT_STORE);
        if (!InfinispanStores.NAME.equals(store)) {
            return;
        }
        if (!infinispanPresent()) {
            abd.addDefinitionError(new IdempotencyConfigurationException("Config key '" + GlobalSettings.STORE
                    + "' is 'infinispan', but org.infinispan:infinispan-core is not on the deployment's class"
                    + " path. Add infinispan-core 16.1.x and its dependencies to WEB-INF/lib, or choose another"
                    + " store."));
            return;
        }
        abd.addBean()
                .beanClass(InfinispanStoreExtension.class)
                .types(IdempotencyStore.class, Object.class)
                .qualifiers(NamedLiteral.of(InfinispanStores.NAME), Any.Literal.INSTANCE)
                .name(InfinispanStores.NAME)
                // A pseudo-scope, so that users get the store itself (not a client proxy) and can reach
                // its cache for diagnostics; one instance per deployment all the same.
                .scope(Singleton.class)
                .produceWith(InfinispanStoreBean::create)
                .disposeWith(InfinispanStoreBean::dispose);
        registered = true;
    }

    void start(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        if (!registered) {
            return;
        }
        try {
            Set<Bean<?>> beans = bm.getBeans(IdempotencyStore.class, NamedLiteral.of(InfinispanStores.NAME));
            Bean<?> bean = bm.resolve(beans);
            if (bean != null) {
                bm.getReference(bean, IdempotencyStore.class, bm.createCreationalContext(bean));
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "the Infinispan idempotency store did not start", e);
            adv.addDeploymentProblem(e);
        }
    }

    private static boolean infinispanPresent() {
        for (ClassLoader cl : new ClassLoader[] {
            InfinispanStoreExtension.class.getClassLoader(),
            Thread.currentThread().getContextClassLoader()
        }) {
            if (cl == null) {
                continue;
            }
            try {
                Class.forName(PROBE, false, cl);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not visible from this loader; try the next
            }
        }
        return false;
    }
}
