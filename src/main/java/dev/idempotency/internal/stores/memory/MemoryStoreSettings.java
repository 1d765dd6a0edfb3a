package dev.idempotency.internal.stores.memory;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;

/**
 * How much the memory store holds at most: records, and estimated heap bytes (each record counts
 * 400 bytes, as measured in docs/performance.md, plus its stored outcome); and how long an IN_PROGRESS
 * claim outlives its lease before the purge deletes it, as on the other stores.
 *
 * @param maxEntries records held at most, live or not yet purged ({@value #MAX_ENTRIES})
 * @param maxBytes estimated heap bytes at most ({@value #MAX_BYTES})
 * @param claimGrace how long the purge keeps an IN_PROGRESS claim after its lease ended, so that an owner
 *     that ran past its lease without a competitor still stores its outcome ({@value #CLAIM_GRACE})
 * @param operationShare the fraction of both limits that the records of one guarded operation may hold
 *     ({@value #OPERATION_SHARE}), so that a flood of new keys on one operation leaves room for the
 *     others; 1 lets one operation fill the store
 * @param callerShare the fraction of both limits that the records of one identified caller of one
 *     operation may hold ({@value #CALLER_SHARE}; a caller is an HTTP operation's principal or scope
 *     header value), so that one client's flood, its stored 4xx answers included, leaves room for the
 *     operation's other callers; 1 lets one caller take its operation's share
 */
public record MemoryStoreSettings(
        long maxEntries, long maxBytes, java.time.Duration claimGrace, double operationShare, double callerShare) {

    /** Config key: records held at most. */
    public static final String MAX_ENTRIES = "idempotency.memory.max-entries";
    /** Config key: estimated heap bytes at most. */
    public static final String MAX_BYTES = "idempotency.memory.max-bytes";
    /** Config key: how long an IN_PROGRESS claim outlives its lease before the purge. */
    public static final String CLAIM_GRACE = "idempotency.memory.claim-grace";
    /** Config key: the fraction of the limits one operation's records may hold. */
    public static final String OPERATION_SHARE = "idempotency.memory.operation-share";
    /** Config key: the fraction of the limits one identified caller's records of one operation may hold. */
    public static final String CALLER_SHARE = "idempotency.memory.caller-share";

    /** Default of {@link #MAX_ENTRIES}: 100,000 records, about 40 MB of small outcomes. */
    public static final long DEFAULT_MAX_ENTRIES = 100_000;
    /** Default of {@link #MAX_BYTES}: 64 MiB, so that large stored responses cannot fill a small heap. */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    /** Default of the claim grace: how long an IN_PROGRESS claim outlives its lease before the purge. */
    public static final java.time.Duration DEFAULT_CLAIM_GRACE = java.time.Duration.ofHours(1);

    /** Default of {@link #OPERATION_SHARE}: one operation holds at most half of the store. */
    public static final double DEFAULT_OPERATION_SHARE = 0.5;

    /** Default of {@link #CALLER_SHARE}: one caller of an operation holds at most a tenth of the store. */
    public static final double DEFAULT_CALLER_SHARE = 0.1;

    /** The defaults. */
    public static final MemoryStoreSettings DEFAULT = new MemoryStoreSettings(
            DEFAULT_MAX_ENTRIES, DEFAULT_MAX_BYTES, DEFAULT_CLAIM_GRACE, DEFAULT_OPERATION_SHARE, DEFAULT_CALLER_SHARE);

    /** Limits with the default claim grace and shares. */
    public MemoryStoreSettings(long maxEntries, long maxBytes) {
        this(maxEntries, maxBytes, DEFAULT_CLAIM_GRACE, DEFAULT_OPERATION_SHARE);
    }

    /** Limits with the default caller share. */
    public MemoryStoreSettings(long maxEntries, long maxBytes, java.time.Duration claimGrace, double operationShare) {
        this(maxEntries, maxBytes, claimGrace, operationShare, DEFAULT_CALLER_SHARE);
    }

    /** Checks the limits. */
    public MemoryStoreSettings {
        if (maxEntries < 1) {
            throw new IdempotencyConfigurationException("Config key '" + MAX_ENTRIES + "' is " + maxEntries
                    + "; set it to a positive number of records such as " + DEFAULT_MAX_ENTRIES + ".");
        }
        if (maxBytes < 1) {
            throw new IdempotencyConfigurationException("Config key '" + MAX_BYTES + "' is " + maxBytes
                    + "; set it to a positive number of bytes such as " + DEFAULT_MAX_BYTES + ".");
        }
        if (claimGrace == null || claimGrace.isNegative() || claimGrace.isZero()) {
            throw new IdempotencyConfigurationException("Config key '" + CLAIM_GRACE + "' is " + claimGrace
                    + "; set it to a positive ISO-8601 duration such as PT1H.");
        }
        if (!(operationShare > 0 && operationShare <= 1)) {
            throw new IdempotencyConfigurationException("Config key '" + OPERATION_SHARE + "' is " + operationShare
                    + "; set it to a fraction above 0 and at most 1, such as " + DEFAULT_OPERATION_SHARE
                    + " (1 lets one operation fill the store).");
        }
        if (!(callerShare > 0 && callerShare <= 1)) {
            throw new IdempotencyConfigurationException("Config key '" + CALLER_SHARE + "' is " + callerShare
                    + "; set it to a fraction above 0 and at most 1, such as " + DEFAULT_CALLER_SHARE
                    + " (1 lets one caller take its operation's share).");
        }
    }

    /** The records one operation may hold: its share of {@link #maxEntries}, at least one. */
    public long operationEntries() {
        return Math.max(1, (long) Math.floor(maxEntries * operationShare));
    }

    /** The estimated bytes one operation's records may hold: its share of {@link #maxBytes}, at least one. */
    public long operationBytes() {
        return Math.max(1, (long) Math.floor(maxBytes * operationShare));
    }

    /** The records one caller of an operation may hold: its share of {@link #maxEntries}, at least one. */
    public long callerEntries() {
        return Math.max(1, (long) Math.floor(maxEntries * callerShare));
    }

    /** The estimated bytes one caller's records of an operation may hold, at least one. */
    public long callerBytes() {
        return Math.max(1, (long) Math.floor(maxBytes * callerShare));
    }

    /**
     * The limits configured in {@code settings}.
     *
     * @throws IdempotencyConfigurationException a value is invalid; the message names the key
     */
    public static MemoryStoreSettings from(ConfigLookup settings) {
        return new MemoryStoreSettings(
                settings.longBetween(MAX_ENTRIES, DEFAULT_MAX_ENTRIES, 1, Long.MAX_VALUE),
                settings.longBetween(MAX_BYTES, DEFAULT_MAX_BYTES, 1, Long.MAX_VALUE),
                settings.duration(CLAIM_GRACE, DEFAULT_CLAIM_GRACE),
                fraction(settings, OPERATION_SHARE, DEFAULT_OPERATION_SHARE),
                fraction(settings, CALLER_SHARE, DEFAULT_CALLER_SHARE));
    }

    private static double fraction(ConfigLookup settings, String key, double fallback) {
        String text = settings.text(key).orElse("");
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            double share = Double.parseDouble(text);
            if (share > 0 && share <= 1) {
                return share;
            }
        } catch (NumberFormatException e) {
            // reported below, with the range
        }
        throw new IdempotencyConfigurationException("Config key '" + key + "' is '" + text
                + "'; set a fraction above 0 and at most 1 (1 turns the bound off), such as 0.25"
                + " (default " + fallback + ").");
    }
}
