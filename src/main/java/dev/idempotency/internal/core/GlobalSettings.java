package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.StoreKeys;
import java.time.Duration;

/**
 * The module-wide configuration keys, their defaults, and the values read. Per-operation keys are
 * read by {@link PolicyResolver}.
 *
 * @param store the configured store name
 * @param ttl the default ttl
 * @param lease the default lease
 * @param application the application's name in record keys ({@link #APPLICATION}), trimmed; empty
 *     when not set
 * @param interceptorPriority the guard's interceptor priority
 * @param waitLimits the bounds on waiting duplicates ({@code idempotency.wait.*})
 * @param keepAliveEnabled whether running calls' claims are renewed ({@link KeepAlive#ENABLED})
 * @param keepAliveMaxDuration how long one call's claim is renewed at most ({@link KeepAlive#MAX_DURATION})
 * @param retryAfter the retry hint for in-progress refusals
 * @param transactionRegistry the JNDI name of the transaction synchronization registry
 * @param purgeInterval the purge interval
 * @param purgeBatchSize the purge batch size
 */
public record GlobalSettings(
        String store,
        Duration ttl,
        Duration lease,
        String application,
        int interceptorPriority,
        WaitLimits waitLimits,
        boolean keepAliveEnabled,
        Duration keepAliveMaxDuration,
        Duration retryAfter,
        String transactionRegistry,
        Duration purgeInterval,
        int purgeBatchSize) {

    /** Which store holds records ({@link StoreKeys#STORE}). */
    public static final String STORE = StoreKeys.STORE;
    /** Default retention of completed outcomes, when an operation sets none. */
    public static final String TTL = "idempotency.ttl";
    /** Default lease of in-progress claims, when an operation sets none. */
    public static final String LEASE = "idempotency.lease";
    /** Priority of the CDI interceptor. */
    public static final String INTERCEPTOR_PRIORITY = StoreKeys.INTERCEPTOR_PRIORITY;
    /** How often expired records are purged. */
    public static final String PURGE_INTERVAL = "idempotency.purge.interval";
    /** How many expired records one purge run deletes at most. */
    public static final String PURGE_BATCH_SIZE = "idempotency.purge.batch-size";
    /** The retry hint given to a call refused because the same key is in progress. */
    public static final String RETRY_AFTER = "idempotency.retry-after";
    /** Config key: calls waiting ({@code onInProgress = WAIT}) for running calls on this node at most. */
    public static final String WAIT_MAX_TOTAL = "idempotency.wait.max-total";
    /** Config key: calls waiting for one key's running call at most. */
    public static final String WAIT_MAX_PER_KEY = "idempotency.wait.max-per-key";
    /** Config key: calls of one operation waiting for running calls on this node at most. */
    public static final String WAIT_MAX_PER_OPERATION = "idempotency.wait.max-per-operation";
    /** Config key: calls of one identified caller of one operation waiting on this node at most. */
    public static final String WAIT_MAX_PER_CALLER = "idempotency.wait.max-per-caller";
    /** Config key: calls of joined operations waiting on this node at most (each holds a connection). */
    public static final String WAIT_MAX_JOINED = "idempotency.wait.max-joined";
    /**
     * The application's name in record keys, so that applications sharing one store never share a
     * record; empty (the default): keys as earlier versions derived them.
     */
    public static final String APPLICATION = "idempotency.application";
    /** JNDI name of the JTA {@code TransactionSynchronizationRegistry} ({@link StoreKeys#TRANSACTION_REGISTRY}). */
    public static final String TRANSACTION_REGISTRY = StoreKeys.TRANSACTION_REGISTRY;

    /** Default of {@link #STORE}. */
    public static final String DEFAULT_STORE = StoreKeys.DEFAULT_STORE;
    /** Default of {@link #TTL}: 24 hours, the retention Stripe documents. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);
    /** Default of {@link #LEASE}: one minute, longer than any request a client waits for. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(1);
    /**
     * Default of {@link #INTERCEPTOR_PRIORITY}: {@code PLATFORM_BEFORE + 100}. Below {@code
     * @Transactional} (200), so a replay returns before any transaction begins, and outside Fault
     * Tolerance ({@code PLATFORM_AFTER + 10}), so a series of retries is one guarded execution. The
     * outcome follows the transaction the method's own work ran in whatever this priority (see
     * {@link #DEFAULT_WORK_INTERCEPTOR_PRIORITY}).
     */
    public static final int DEFAULT_INTERCEPTOR_PRIORITY = 100;
    /**
     * Priority of the second, inner interceptor that watches the guarded method's body: {@code
     * PLATFORM_AFTER + 900}, after {@code @Transactional} (200), every application interceptor and
     * MicroProfile Fault Tolerance ({@code PLATFORM_AFTER + 10}), so it sees the transaction the body
     * itself runs in and how the body ended, also after a Fault Tolerance timeout. When {@link
     * #INTERCEPTOR_PRIORITY} is set at or above it, it moves to just after that.
     */
    public static final int DEFAULT_WORK_INTERCEPTOR_PRIORITY = 4900;
    /** Default of {@link #RETRY_AFTER}: one second, a typical call's duration. */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    /** Default of {@link #TRANSACTION_REGISTRY}: where Jakarta EE servers bind it. */
    public static final String DEFAULT_TRANSACTION_REGISTRY = StoreKeys.DEFAULT_TRANSACTION_REGISTRY;
    /** Default of {@link #PURGE_INTERVAL}. */
    public static final Duration DEFAULT_PURGE_INTERVAL = Duration.ofMinutes(5);
    /** Default of {@link #PURGE_BATCH_SIZE}. */
    public static final int DEFAULT_PURGE_BATCH_SIZE = 1000;

    /**
     * Reads and checks every module-wide key, once, at deployment.
     *
     * @param settings where the values come from
     * @throws IdempotencyConfigurationException a value is invalid; the message names the key
     */
    public static GlobalSettings from(ConfigLookup settings) {
        String application = settings.text(APPLICATION).orElse("");
        if (application.length() > 200) {
            throw new IdempotencyConfigurationException("Config key '" + APPLICATION + "' is "
                    + application.length()
                    + " characters long; set it to a short stable name of the service, such as 'orders'.");
        }
        return new GlobalSettings(
                StoreKeys.store(settings),
                settings.duration(TTL, DEFAULT_TTL),
                settings.duration(LEASE, DEFAULT_LEASE),
                application,
                interceptorPriority(settings),
                new WaitLimits(
                        settings.positiveInt(WAIT_MAX_TOTAL, WaitLimits.DEFAULT.maxTotal()),
                        settings.positiveInt(WAIT_MAX_PER_KEY, WaitLimits.DEFAULT.maxPerKey()),
                        settings.positiveInt(WAIT_MAX_PER_OPERATION, WaitLimits.DEFAULT.maxPerOperation()),
                        settings.positiveInt(WAIT_MAX_PER_CALLER, WaitLimits.DEFAULT.maxPerCaller()),
                        settings.positiveInt(WAIT_MAX_JOINED, WaitLimits.DEFAULT.maxJoined())),
                settings.bool(KeepAlive.ENABLED, true),
                settings.duration(KeepAlive.MAX_DURATION, KeepAlive.DEFAULT_MAX_DURATION),
                settings.duration(RETRY_AFTER, DEFAULT_RETRY_AFTER),
                StoreKeys.transactionRegistry(settings),
                settings.duration(PURGE_INTERVAL, DEFAULT_PURGE_INTERVAL),
                settings.positiveInt(PURGE_BATCH_SIZE, DEFAULT_PURGE_BATCH_SIZE));
    }

    /**
     * The guard's interceptor priority alone ({@link #INTERCEPTOR_PRIORITY}): what the CDI extension
     * needs while types are processed, before the other keys are read and reported at validation.
     */
    public static int interceptorPriority(ConfigLookup settings) {
        // Any int is a CDI priority; workInterceptorPriority refuses the one value it cannot follow.
        return settings.intBetween(
                INTERCEPTOR_PRIORITY, DEFAULT_INTERCEPTOR_PRIORITY, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** The priority of the inner interceptor: after the guard's and after {@code @Transactional}. */
    public int workInterceptorPriority() {
        return workInterceptorPriority(interceptorPriority);
    }

    /**
     * The priority of the inner interceptor for a guard at {@code guard}.
     *
     * @throws IdempotencyConfigurationException the guard is at the highest priority, which nothing follows
     */
    public static int workInterceptorPriority(int guard) {
        if (guard == Integer.MAX_VALUE) {
            throw new IdempotencyConfigurationException("Config key '" + INTERCEPTOR_PRIORITY + "' is " + guard
                    + "; set it below " + Integer.MAX_VALUE + ", such as 100 (the default) or 1000.");
        }
        return Math.max(DEFAULT_WORK_INTERCEPTOR_PRIORITY, guard + 1);
    }
}
