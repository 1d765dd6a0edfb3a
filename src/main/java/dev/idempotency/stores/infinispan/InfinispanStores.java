package dev.idempotency.stores.infinispan;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.Settings;
import dev.idempotency.spi.IdempotencyRecord;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.configuration.parsing.ConfigurationBuilderHolder;
import org.infinispan.configuration.parsing.ParserRegistry;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * Builds {@link InfinispanIdempotencyStore}s from configuration: the config keys, the shipped
 * clustered configuration, and the cache manager that backs a store.
 *
 * <p>Without {@link #CONFIG}, the store runs on a local (single-node) cache. With it, the named
 * Infinispan XML file (a class-path resource or a file path) is parsed, with {@code ${...}}
 * placeholders resolved from system properties and from the {@code idempotency.infinispan.*} config
 * keys; {@link #CLUSTER_CONFIG} is the clustered configuration shipped in this jar.
 */
public final class InfinispanStores {

    /** The store's name, the value of {@code idempotency.store} that selects it. */
    public static final String NAME = "infinispan";

    /** Config key: the Infinispan XML file (class-path resource or file path). Default: a local cache. */
    public static final String CONFIG = "idempotency.infinispan.config";

    /** Config key: the cache that holds the records. Default: {@value #DEFAULT_CACHE}. */
    public static final String CACHE = "idempotency.infinispan.cache";

    /**
     * Config key: how long an in-progress claim's entry outlives its lease, so that an owner that ran
     * past its lease can still store its outcome when nobody took over. Default: {@code PT1H}.
     */
    public static final String CLAIM_GRACE = "idempotency.infinispan.claim-grace";

    /** Default of {@link #CACHE}. */
    public static final String DEFAULT_CACHE = "idempotency";

    /** Default of {@link #CLAIM_GRACE}. */
    public static final Duration DEFAULT_CLAIM_GRACE = Duration.ofHours(1);

    /**
     * The clustered configuration shipped in this jar: JGroups TCP with static discovery (TCPPING) on
     * 127.0.0.1, a transactional distributed cache with two owners, and partition handling that denies
     * reads and writes in a minority partition. Set {@code idempotency.infinispan.config} to this
     * value to use it.
     */
    public static final String CLUSTER_CONFIG = "idempotency-infinispan-cluster.xml";

    private InfinispanStores() {}

    /**
     * Starts a cache manager and a store on it; closing the store stops the manager. While the
     * store is open, Infinispan's reports of write conflicts that the store handles are kept out of
     * the log (see {@code docs/infinispan-store.md}, "Logging").
     *
     * @param settings the configuration ({@link #CONFIG}, {@link #CACHE}, {@link #CLAIM_GRACE})
     * @param placeholders values for {@code ${...}} placeholders of the XML configuration
     * @param loader the class loader that finds the XML resource and the application's classes
     */
    public static InfinispanIdempotencyStore start(Settings settings, Properties placeholders, ClassLoader loader) {
        String config =
                settings.get(CONFIG).map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        // This store's manager: its handled write conflicts must not reach the log above DEBUG.
        QuietWriteConflicts.acquire();
        EmbeddedCacheManager manager;
        try {
            manager = startManager(config, placeholders, loader);
        } catch (RuntimeException e) {
            QuietWriteConflicts.release();
            throw e;
        }
        AtomicBoolean stopped = new AtomicBoolean();
        Runnable stop = () -> {
            if (stopped.compareAndSet(false, true)) {
                try {
                    manager.stop();
                } finally {
                    QuietWriteConflicts.release();
                }
            }
        };
        try {
            return new InfinispanIdempotencyStore(
                    cache(manager, settings, config), Clock.systemUTC(), claimGrace(settings), stop);
        } catch (RuntimeException e) {
            stop.run();
            throw e;
        }
    }

    /**
     * A store on a cache manager that the application manages (for example one it produces through
     * CDI); the store never stops it. The manager must define the cache named by {@link #CACHE}.
     */
    public static InfinispanIdempotencyStore onManager(EmbeddedCacheManager manager, Settings settings) {
        return new InfinispanIdempotencyStore(
                cache(manager, settings, null), Clock.systemUTC(), claimGrace(settings), null);
    }

    /**
     * Starts a cache manager: from the XML file {@code config} when given, otherwise a non-clustered
     * manager with a local cache named {@value #DEFAULT_CACHE}. Either way the record schema is
     * registered with its serialization.
     *
     * @param config class-path resource or file path of an Infinispan XML configuration, or {@code null}
     * @param placeholders values for {@code ${...}} placeholders in the XML
     * @param loader the class loader for the resource and for Infinispan's own class lookups
     */
    public static EmbeddedCacheManager startManager(String config, Properties placeholders, ClassLoader loader) {
        if (config == null) {
            GlobalConfigurationBuilder global = new GlobalConfigurationBuilder().nonClusteredDefault();
            global.classLoader(loader);
            global.serialization().addContextInitializer(new IdempotencyRecordSchema());
            DefaultCacheManager manager = new DefaultCacheManager(global.build());
            // A local cache: its conditional writes are atomic under the entry's lock, no
            // transactions needed.
            manager.defineConfiguration(DEFAULT_CACHE, new ConfigurationBuilder().build());
            return manager;
        }
        URL url = locate(config, loader);
        ConfigurationBuilderHolder holder;
        try {
            holder = new ParserRegistry(loader, false, placeholders).parse(url);
        } catch (IOException | RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + CONFIG + "' names '" + config + "', which is not a valid Infinispan XML"
                            + " configuration: " + e.getMessage(),
                    e);
        }
        holder.getGlobalConfigurationBuilder().classLoader(loader);
        holder.getGlobalConfigurationBuilder().serialization().addContextInitializer(new IdempotencyRecordSchema());
        return new DefaultCacheManager(holder, true);
    }

    private static Cache<String, IdempotencyRecord> cache(
            EmbeddedCacheManager manager, Settings settings, String config) {
        String name =
                settings.get(CACHE).map(String::trim).filter(s -> !s.isEmpty()).orElse(DEFAULT_CACHE);
        if (manager.getCacheConfiguration(name) == null) {
            throw new IdempotencyConfigurationException("The Infinispan cache manager"
                    + (config == null ? " supplied by the application" : " configured by '" + config + "'")
                    + " has no cache named '" + name + "'. Define that cache in the configuration, or set '"
                    + CACHE + "' to the name of a cache it defines.");
        }
        return manager.getCache(name);
    }

    private static Duration claimGrace(Settings settings) {
        return settings.get(CLAIM_GRACE)
                .map(v -> GlobalSettings.duration(CLAIM_GRACE, v))
                .orElse(DEFAULT_CLAIM_GRACE);
    }

    private static URL locate(String config, ClassLoader loader) {
        URL url = loader.getResource(config.startsWith("/") ? config.substring(1) : config);
        if (url == null && InfinispanStores.class.getClassLoader() != loader) {
            url = InfinispanStores.class.getClassLoader().getResource(config);
        }
        if (url != null) {
            return url;
        }
        Path file = Path.of(config);
        if (Files.isReadable(file)) {
            try {
                return file.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IdempotencyConfigurationException("Config key '" + CONFIG + "': bad path " + config, e);
            }
        }
        throw new IdempotencyConfigurationException("Config key '" + CONFIG + "' names '" + config
                + "', which is neither a class-path resource nor a readable file. Use '" + CLUSTER_CONFIG
                + "' for the shipped clustered configuration, or the path of your own Infinispan XML file.");
    }
}
