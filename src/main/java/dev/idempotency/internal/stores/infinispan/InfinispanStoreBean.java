package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.inject.Instance;
import java.util.Properties;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * Creates and disposes the CDI bean of the Infinispan store. Loaded only when Infinispan is present
 * (see {@link InfinispanStoreExtension}).
 */
final class InfinispanStoreBean {

    private static final System.Logger LOG = System.getLogger(InfinispanStoreBean.class.getName());

    private InfinispanStoreBean() {}

    /**
     * The application's own {@link EmbeddedCacheManager} bean if it declares one, else a cache
     * manager started from {@code idempotency.infinispan.config}.
     */
    static IdempotencyStore create(Instance<Object> lookup) {
        Config config = ConfigProvider.getConfig();
        ConfigLookup settings = key -> config.getOptionalValue(key, String.class);
        Instance<EmbeddedCacheManager> own = lookup.select(EmbeddedCacheManager.class);
        IdempotencyStore store = own.isResolvable()
                ? InfinispanStores.onManager(own.get(), settings)
                : InfinispanStores.start(settings, placeholders(config), InfinispanStoreBean.class.getClassLoader());
        LOG.log(
                System.Logger.Level.INFO,
                "idempotency store: {0}",
                store instanceof InfinispanRaftStore cluster
                        ? "Infinispan cluster, RAFT member " + cluster.raftId() + " of " + cluster.members()
                        : "Infinispan local cache '"
                                + ((InfinispanLocalStore) store).cache().getName() + "'");
        return store;
    }

    /** Stops the cache manager the store started; the application's own manager is left alone. */
    static void dispose(IdempotencyStore store, Instance<Object> lookup) {
        try {
            ((AutoCloseable) store).close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "stopping the Infinispan idempotency store failed", e);
        }
    }

    /** System properties, overridden by every {@code idempotency.infinispan.*} config key. */
    private static Properties placeholders(Config config) {
        Properties p = new Properties();
        p.putAll(System.getProperties());
        for (String name : config.getPropertyNames()) {
            if (name.startsWith("idempotency.infinispan.")) {
                config.getOptionalValue(name, String.class).ifPresent(v -> p.setProperty(name, v));
            }
        }
        return p;
    }
}
