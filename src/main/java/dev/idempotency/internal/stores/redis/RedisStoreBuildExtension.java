package dev.idempotency.internal.stores.redis;

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
 * The {@link RedisStoreExtension}'s work where only CDI Lite runs (Quarkus's ArC): registers the Redis
 * store as {@code @Named("redis") IdempotencyStore} when Jedis is on the class path. On ArC this runs at
 * build time, so the bean is registered whatever {@code idempotency.store} says then; it is created
 * (and connects) only when the runtime selects it, at startup, where an unreachable Redis fails the
 * startup. Weld runs the portable extension instead and skips this one.
 *
 * <p>Like the portable extension, this class names no Jedis type.
 */
@SkipIfPortableExtensionPresent(RedisStoreExtension.class)
public class RedisStoreBuildExtension implements BuildCompatibleExtension {

    /** A class that exists exactly when Jedis is deployed. */
    private static final String PROBE = "redis.clients.jedis.UnifiedJedis";

    /** Created by the container through {@code ServiceLoader}. */
    public RedisStoreBuildExtension() {}

    /** Registers the store's bean when Jedis is present. */
    @Synthesis
    public void register(SyntheticComponents components) {
        if (!OptionalStores.present(PROBE, RedisStoreBuildExtension.class)) {
            return;
        }
        OptionalStores.synthesize(components, RedisStores.NAME, Creator.class, Disposer.class);
    }

    /** Creates the store ({@link RedisStoreBean#create}). */
    public static final class Creator implements SyntheticBeanCreator<IdempotencyStore> {
        @Override
        public IdempotencyStore create(Instance<Object> lookup, Parameters params) {
            return RedisStoreBean.create(lookup);
        }
    }

    /** Closes the store ({@link RedisStoreBean#dispose}). */
    public static final class Disposer implements SyntheticBeanDisposer<IdempotencyStore> {
        @Override
        public void dispose(IdempotencyStore instance, Instance<Object> lookup, Parameters params) {
            RedisStoreBean.dispose(instance, lookup);
        }
    }
}
