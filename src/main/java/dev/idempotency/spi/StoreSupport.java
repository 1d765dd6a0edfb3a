package dev.idempotency.spi;

import java.time.Duration;

/**
 * Small rules every store applies alike, for the built-in stores and for yours: the short key hash that
 * messages and exceptions carry, and lease and ttl lengths as bounded milliseconds.
 */
public final class StoreSupport {

    /** The longest time a store is asked to keep anything: 100 years, far from overflowing a sum of two. */
    public static final long MAX_MILLIS = Duration.ofDays(365L * 100).toMillis();

    private StoreSupport() {}

    /**
     * The short form of a store key for log lines and exception messages ({@link
     * dev.idempotency.IdempotencyException#keyHash}): its first 12 characters. Store keys are already
     * hashes, so a prefix correlates lines without revealing the caller's key.
     */
    public static String keyHash(String storeKey) {
        return storeKey.length() > 12 ? storeKey.substring(0, 12) : storeKey;
    }

    /** {@code d} in milliseconds, at least 1 and at most {@link #MAX_MILLIS}. */
    public static long millis(Duration d) {
        if (d.compareTo(Duration.ofMillis(MAX_MILLIS)) >= 0) {
            return MAX_MILLIS;
        }
        return Math.max(1, d.toMillis());
    }

    /** {@code a + b} for two lengths of at most {@link #MAX_MILLIS}, capped at {@link #MAX_MILLIS}. */
    public static long saturatedAdd(long a, long b) {
        return Math.min(MAX_MILLIS, a + b);
    }
}
