package dev.idempotency.internal.stores;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.StoreKeys;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanDisposer;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the CDI extensions of the optional stores (Infinispan, Redis) share: each registers its store
 * as {@code @Named("<name>") IdempotencyStore} only when {@code idempotency.store} names it and its
 * client library is on the deployment's class path, and starts it with the deployment so that a bad
 * configuration or an unreachable backend fails the deployment, not the first call. Internal.
 *
 * <p>This class and the extensions that use it stay free of the libraries' types: the container loads
 * them in every deployment, including those without the library. The {@code create} and {@code
 * dispose} functions live in classes loaded only once the library is known to be present.
 */
public final class OptionalStores {

    private static final System.Logger LOG = System.getLogger(OptionalStores.class.getName());

    private OptionalStores() {}

    /** Whether {@code idempotency.store} names {@code name}. */
    public static boolean selected(String name) {
        return name.equals(ConfigProvider.getConfig()
                .getOptionalValue(StoreKeys.STORE, String.class)
                .map(String::trim)
                .orElse(StoreKeys.DEFAULT_STORE));
    }

    /**
     * Registers the store's bean, or a definition error when its library is missing.
     *
     * @param probe a class that exists exactly when the library is deployed
     * @param library what to add to WEB-INF/lib, for the error message
     * @return whether the bean was registered
     */
    public static boolean register(
            AfterBeanDiscovery abd,
            Class<?> extension,
            String name,
            String probe,
            String library,
            Function<Instance<Object>, IdempotencyStore> create,
            BiConsumer<IdempotencyStore, Instance<Object>> dispose) {
        if (!present(probe, extension)) {
            abd.addDefinitionError(new IdempotencyConfigurationException("Config key '" + StoreKeys.STORE
                    + "' is '" + name + "', but " + library + " is not on the deployment's class path. Add it"
                    + " and its dependencies to WEB-INF/lib, or choose another store."));
            return false;
        }
        abd.addBean()
                .beanClass(extension)
                .types(IdempotencyStore.class, Object.class)
                .qualifiers(NamedLiteral.of(name), Any.Literal.INSTANCE)
                .name(name)
                // A pseudo-scope, so that users get the store itself (not a client proxy) and can reach
                // its backend for diagnostics; one instance per deployment all the same.
                .scope(Singleton.class)
                .produceWith(create)
                .disposeWith(dispose);
        return true;
    }

    /**
     * Where only CDI Lite runs (Quarkus's ArC, at build time): registers the store's bean as {@code
     * @Named(name) IdempotencyStore}, made by {@code creator} when the runtime first asks for it.
     */
    public static void synthesize(
            SyntheticComponents components,
            String name,
            Class<? extends SyntheticBeanCreator<IdempotencyStore>> creator,
            Class<? extends SyntheticBeanDisposer<IdempotencyStore>> disposer) {
        components
                .addBean(IdempotencyStore.class)
                .type(IdempotencyStore.class)
                .qualifier(NamedLiteral.of(name))
                .name(name)
                // A pseudo-scope, as on CDI Full: users get the store itself, not a client proxy.
                .scope(Singleton.class)
                .createWith(creator)
                .disposeWith(disposer);
    }

    /** Creates the registered store now, so that a failure to start fails the deployment. */
    public static void start(AfterDeploymentValidation adv, BeanManager bm, String name) {
        try {
            Set<Bean<?>> beans = bm.getBeans(IdempotencyStore.class, NamedLiteral.of(name));
            Bean<?> bean = bm.resolve(beans);
            if (bean != null) {
                bm.getReference(bean, IdempotencyStore.class, bm.createCreationalContext(bean));
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "the " + name + " idempotency store did not start", e);
            adv.addDeploymentProblem(e);
        }
    }

    /** Whether {@code probe}, a class of the store's library, is visible from {@code anchor} or the TCCL. */
    public static boolean present(String probe, Class<?> anchor) {
        for (ClassLoader cl : new ClassLoader[] {
            anchor.getClassLoader(), Thread.currentThread().getContextClassLoader()
        }) {
            if (cl == null) {
                continue;
            }
            try {
                Class.forName(probe, false, cl);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not visible from this loader; try the next
            }
        }
        return false;
    }
}
