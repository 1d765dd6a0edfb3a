package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.internal.stores.OptionalStores;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanDisposer;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;

/**
 * The {@link InfinispanStoreExtension}'s work where only CDI Lite runs (Quarkus's ArC): registers the
 * Infinispan store as {@code @Named("infinispan") IdempotencyStore} when infinispan-core is on the class
 * path. On ArC this runs at build time, so the bean is registered whatever {@code idempotency.store} says
 * then; it is created (and its cache manager started, or the application's own {@code
 * EmbeddedCacheManager} bean used) only when the runtime selects it, at startup, where a bad Infinispan
 * configuration or a cluster it cannot join fails the startup. Weld runs the portable extension instead
 * and skips this one.
 *
 * <p>Like the portable extension, this class names no Infinispan type.
 */
@SkipIfPortableExtensionPresent(InfinispanStoreExtension.class)
public class InfinispanStoreBuildExtension implements BuildCompatibleExtension {

    /** A class that exists exactly when infinispan-core is deployed. */
    private static final String PROBE = "org.infinispan.manager.EmbeddedCacheManager";

    /** Created by the container through {@code ServiceLoader}. */
    public InfinispanStoreBuildExtension() {}

    /** Registers the store's bean when infinispan-core is present. */
    @Synthesis
    public void register(SyntheticComponents components) {
        if (!OptionalStores.present(PROBE, InfinispanStoreBuildExtension.class)) {
            return;
        }
        OptionalStores.synthesize(components, InfinispanStores.NAME, Creator.class, Disposer.class);
    }

    /** Creates the store ({@link InfinispanStoreBean#create}). */
    public static final class Creator implements SyntheticBeanCreator<IdempotencyStore> {
        @Override
        public IdempotencyStore create(Instance<Object> lookup, Parameters params) {
            return InfinispanStoreBean.create(lookup);
        }
    }

    /** Closes the store ({@link InfinispanStoreBean#dispose}). */
    public static final class Disposer implements SyntheticBeanDisposer<IdempotencyStore> {
        @Override
        public void dispose(IdempotencyStore instance, Instance<Object> lookup, Parameters params) {
            InfinispanStoreBean.dispose(instance, lookup);
        }
    }
}
