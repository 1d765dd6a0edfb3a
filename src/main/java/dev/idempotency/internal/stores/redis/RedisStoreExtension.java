package dev.idempotency.internal.stores.redis;

import dev.idempotency.internal.stores.OptionalStores;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Registers the Redis store as the CDI bean {@code @Named("redis") IdempotencyStore} when {@code
 * idempotency.store=redis} and Jedis is on the deployment's class path, and connects it with the
 * deployment: a Redis that cannot be reached fails the deployment with the key that points at it.
 *
 * <p>This class must stay free of Jedis types: the container loads it in every deployment. The
 * store is built by {@link RedisStoreBean}, loaded only once Jedis is known to be present.
 */
public class RedisStoreExtension implements Extension {

    /** A class that exists exactly when Jedis is deployed. */
    private static final String PROBE = "redis.clients.jedis.UnifiedJedis";

    private boolean registered;

    /** Created by the container through {@code ServiceLoader}. */
    public RedisStoreExtension() {}

    void register(@Observes AfterBeanDiscovery abd) {
        if (OptionalStores.selected(RedisStores.NAME)) {
            registered = OptionalStores.register(
                    abd,
                    RedisStoreExtension.class,
                    RedisStores.NAME,
                    PROBE,
                    "redis.clients:jedis 8.0.x",
                    RedisStoreBean::create,
                    RedisStoreBean::dispose);
        }
    }

    void start(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        if (registered) {
            OptionalStores.start(adv, bm, RedisStores.NAME);
        }
    }
}
