package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.spi.ConfigLookup;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Infinispan store's configuration keys and their values, read and checked once, when the store
 * starts (docs/infinispan-store.md has the table). Which of them apply depends on the store the XML
 * configuration makes: the local store reads {@link #cache} and {@link #claimGrace}, and refuses the
 * cluster's keys ({@link InfinispanStores}).
 *
 * @param config the Infinispan XML file ({@link #CONFIG}), or {@code null} for a local cache
 * @param cache the records' cache or RAFT group ({@link #CACHE})
 * @param claimGrace how long a claim outlives its lease ({@link #CLAIM_GRACE})
 * @param stateDir a cluster member's RAFT log and snapshots ({@link #STATE_DIR})
 * @param fsync whether each RAFT log append reaches the disk before it counts ({@link #FSYNC})
 * @param writeTimeout how long a cluster command waits for its answer ({@link #WRITE_TIMEOUT})
 * @param transactionRegistry the JNDI name of the JTA registry (the joined mode)
 * @param maxEntries a cluster's records at most ({@link #MAX_ENTRIES}), or {@code null} when not set
 * @param maxBytes the bytes a cluster's records count for at most ({@link #MAX_BYTES}), or {@code null}
 *     when not set
 */
public record InfinispanStoreSettings(
        String config,
        String cache,
        Duration claimGrace,
        Path stateDir,
        boolean fsync,
        Duration writeTimeout,
        String transactionRegistry,
        Long maxEntries,
        Long maxBytes) {

    /** Config key: the Infinispan XML file (class-path resource or file path). Default: a local cache. */
    public static final String CONFIG = "idempotency.infinispan.config";

    /**
     * Config key: the name of the records' home. On one node, the local cache that holds them; in a
     * cluster, the RAFT group whose state they are (members with the same name share records).
     * Default: {@value #DEFAULT_CACHE}.
     */
    public static final String CACHE = "idempotency.infinispan.cache";

    /**
     * Config key: how long an in-progress claim outlives its lease, so that an owner that ran past its
     * lease can still store its outcome when nobody took over. Default: {@code PT1H}.
     */
    public static final String CLAIM_GRACE = "idempotency.infinispan.claim-grace";

    /** Config key: the directory of this member's RAFT log and snapshots. Default: {@value #DEFAULT_STATE_DIR}. */
    public static final String STATE_DIR = "idempotency.infinispan.state-dir";

    /** Config key: whether each RAFT log append is forced to disk before it counts. Default: {@code true}. */
    public static final String FSYNC = "idempotency.infinispan.fsync";

    /** Config key: how long a command waits for the cluster's answer. Default: {@code PT10S}. */
    public static final String WRITE_TIMEOUT = "idempotency.infinispan.write-timeout";

    /**
     * Config key: in a cluster, the records its RAFT group holds at most, live or not yet purged; a claim
     * of a new key beyond it gets 503. Default: {@value #DEFAULT_MAX_ENTRIES}.
     */
    public static final String MAX_ENTRIES = "idempotency.infinispan.max-entries";

    /**
     * Config key: in a cluster, the bytes its records count for at most (about 600 a record plus its
     * stored outcome); a claim of a new key beyond it gets 503. Default: a quarter of the JVM's maximum
     * heap.
     */
    public static final String MAX_BYTES = "idempotency.infinispan.max-bytes";

    /** Default of {@link #MAX_ENTRIES}. */
    public static final long DEFAULT_MAX_ENTRIES = 10_000_000;

    /** Default of {@link #CACHE}. */
    public static final String DEFAULT_CACHE = "idempotency";

    /** Default of {@link #CLAIM_GRACE}. */
    public static final Duration DEFAULT_CLAIM_GRACE = Duration.ofHours(1);

    /** Default of {@link #STATE_DIR}: relative to the server's working directory. */
    public static final String DEFAULT_STATE_DIR = "idempotency-state";

    /** Default of {@link #WRITE_TIMEOUT}. */
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(10);

    /** Reads and checks every key; a bad value fails here, naming its key. */
    public static InfinispanStoreSettings from(ConfigLookup settings) {
        return new InfinispanStoreSettings(
                text(settings, CONFIG, null),
                text(settings, CACHE, DEFAULT_CACHE),
                settings.duration(CLAIM_GRACE, DEFAULT_CLAIM_GRACE),
                Path.of(text(settings, STATE_DIR, DEFAULT_STATE_DIR)),
                settings.bool(FSYNC, true),
                settings.duration(WRITE_TIMEOUT, DEFAULT_WRITE_TIMEOUT),
                JoinedMode.registryName(settings),
                settings.text(MAX_ENTRIES).isPresent()
                        ? settings.longBetween(MAX_ENTRIES, DEFAULT_MAX_ENTRIES, 1, Long.MAX_VALUE)
                        : null,
                settings.text(MAX_BYTES).isPresent()
                        ? settings.longBetween(MAX_BYTES, Long.MAX_VALUE, 1, Long.MAX_VALUE)
                        : null);
    }

    /** These settings for a cache manager the application made: no XML file of this store's. */
    InfinispanStoreSettings withoutConfig() {
        return new InfinispanStoreSettings(
                null, cache, claimGrace, stateDir, fsync, writeTimeout, transactionRegistry, maxEntries, maxBytes);
    }

    /** {@link #maxEntries}, or its default. */
    public long maxEntriesOrDefault() {
        return maxEntries != null ? maxEntries : DEFAULT_MAX_ENTRIES;
    }

    /** {@link #maxBytes}, or its default: a quarter of the JVM's maximum heap. */
    public long maxBytesOrDefault() {
        return maxBytes != null ? maxBytes : Runtime.getRuntime().maxMemory() / 4;
    }

    private static String text(ConfigLookup settings, String key, String orElse) {
        return settings.get(key).map(String::trim).filter(s -> !s.isEmpty()).orElse(orElse);
    }
}
