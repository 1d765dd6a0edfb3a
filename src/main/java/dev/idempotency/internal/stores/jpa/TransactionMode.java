package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.Locale;

/** Which transaction the JPA store writes an operation's record in ({@code idempotency.jpa.transaction}). */
enum TransactionMode {
    /**
     * Every store call commits in a transaction of its own (a caller's transaction is suspended), so a
     * concurrent duplicate sees the IN_PROGRESS claim at once. The business transaction and the record
     * commit separately: the outcome is stored after the business commit, by the interceptor.
     */
    SEPARATE,
    /**
     * The record is written in the caller's JTA transaction: business rows and record commit or roll
     * back together, a rollback frees the key, and a concurrent duplicate waits on the row lock, then
     * replays. Requires a JTA transaction to be active when the interceptor runs.
     */
    JOINED;

    /** Parses a config value, naming the key on error. */
    static TransactionMode parse(String key, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + key + "' is '" + value + "'; use separate or joined.", e);
        }
    }
}
