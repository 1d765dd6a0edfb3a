package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code idempotency.jpa.*} configuration keys, their defaults, and the values read.
 *
 * @param datasource the data source's JNDI name
 * @param lockTimeout the bound on lock waits
 * @param claimGrace how long the purge keeps an IN_PROGRESS row after its lease ended
 * @param settlePatience how long a complete or release retries a transient failure
 * @param createTable whether to create the table when missing
 * @param notifySettlements whether complete and release send settlement notices where the database can
 * @param dialect the configured dialect name, if any
 */
public record JpaStoreSettings(
        String datasource,
        Duration lockTimeout,
        Duration claimGrace,
        Duration settlePatience,
        boolean createTable,
        boolean notifySettlements,
        Optional<String> dialect) {

    /** JNDI name of the (JTA) data source that holds the table. */
    public static final String DATASOURCE = "idempotency.jpa.datasource";
    /** How long a store call waits for a row lock (or a conflicting uncommitted insert). */
    public static final String LOCK_TIMEOUT = "idempotency.jpa.lock-timeout";
    /** Whether the store creates its table (and index) when missing, from the shipped DDL. */
    public static final String CREATE_TABLE = "idempotency.jpa.create-table";
    /** The database dialect; detected from the JDBC metadata when unset. */
    public static final String DIALECT = "idempotency.jpa.dialect";
    /**
     * How long the purge keeps an IN_PROGRESS row after its lease ended, so that an owner that ran
     * past its lease without a competitor can still store its outcome.
     */
    public static final String CLAIM_GRACE = "idempotency.jpa.claim-grace";
    /**
     * How long a complete or release keeps retrying a lost connection, a failover, a pool timeout or a
     * lock, before the outcome is given up (docs/operations.md, "When the store fails after the
     * operation ran").
     */
    public static final String SETTLE_PATIENCE = "idempotency.jpa.settle-patience";
    /**
     * Whether committed completions and releases are sent as PostgreSQL notices that wake duplicates
     * waiting on other nodes ({@code pg_notify} on {@link JpaIdempotencyStore#CHANNEL}, from the store's
     * {@link SettlementNotifier}); PostgreSQL only, ignored elsewhere.
     */
    public static final String NOTIFY_SETTLEMENTS = "idempotency.jpa.notify-settlements";

    /** Default of {@link #DATASOURCE}: the platform's default data source. */
    public static final String DEFAULT_DATASOURCE = "java:comp/DefaultDataSource";
    /** Default of {@link #LOCK_TIMEOUT}. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);
    /** Default of {@link #CLAIM_GRACE}. */
    public static final Duration DEFAULT_CLAIM_GRACE = Duration.ofHours(1);
    /** Default of {@link #SETTLE_PATIENCE}. */
    public static final Duration DEFAULT_SETTLE_PATIENCE = Duration.ofMinutes(2);
    /** Default of {@link #NOTIFY_SETTLEMENTS}. */
    public static final boolean DEFAULT_NOTIFY_SETTLEMENTS = true;

    /**
     * Reads and validates the keys.
     *
     * @param settings where the values come from
     * @throws IdempotencyConfigurationException a value is invalid
     */
    public static JpaStoreSettings from(ConfigLookup settings) {
        Duration lockTimeout = settings.duration(LOCK_TIMEOUT, DEFAULT_LOCK_TIMEOUT);
        if (lockTimeout.toMillis() < 1000) {
            // JDBC statement timeouts have a resolution of whole seconds; below one it would mean "none".
            throw new IdempotencyConfigurationException("Config key '" + LOCK_TIMEOUT + "' is " + lockTimeout
                    + "; JDBC statement timeouts count whole seconds, so set at least PT1S.");
        }
        return new JpaStoreSettings(
                settings.text(DATASOURCE).orElse(DEFAULT_DATASOURCE),
                lockTimeout,
                settings.duration(CLAIM_GRACE, DEFAULT_CLAIM_GRACE),
                settings.duration(SETTLE_PATIENCE, DEFAULT_SETTLE_PATIENCE),
                // Read now, though only a missing table consults it, so that a bad value fails the deployment.
                settings.bool(CREATE_TABLE, true),
                settings.bool(NOTIFY_SETTLEMENTS, DEFAULT_NOTIFY_SETTLEMENTS),
                settings.text(DIALECT));
    }
}
