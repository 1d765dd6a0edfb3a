package dev.idempotency.internal.stores.redis;

import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Creates and disposes the CDI bean of the Redis store. Loaded only when Jedis is present. */
final class RedisStoreBean {

    private static final System.Logger LOG = System.getLogger(RedisStoreBean.class.getName());

    private RedisStoreBean() {}

    static IdempotencyStore create(Instance<Object> lookup) {
        Config config = ConfigProvider.getConfig();
        RedisIdempotencyStore store = RedisStores.start(key -> config.getOptionalValue(key, String.class));
        LOG.log(System.Logger.Level.INFO, "idempotency store on Redis: {0}", store.where());
        return store;
    }

    static void dispose(IdempotencyStore store, Instance<Object> lookup) {
        try {
            ((RedisIdempotencyStore) store).close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the Redis idempotency store failed", e);
        }
    }
}
