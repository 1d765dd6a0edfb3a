package dev.idempotency.messaging;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;

/**
 * The {@code idempotency.messages.*} keys, their defaults and parsed values; read at deployment, so an
 * invalid value fails it with a message naming the key.
 */
public final class MessageSettings {

    /** Attempts per message before it is marked failed, when the annotation or call sets none. */
    public static final String MAX_ATTEMPTS = "idempotency.messages.max-attempts";
    /** How long a message's outcome (and attempt history) is kept. */
    public static final String RETENTION = "idempotency.messages.retention";
    /** How long one delivery may process before another delivery may take the message over. */
    public static final String LEASE = "idempotency.messages.lease";

    /** Default of {@link #MAX_ATTEMPTS}: the seeds' three. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /** Default of {@link #RETENTION}: seven days, longer than brokers keep redelivering. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    /** Default of {@link #LEASE}: five minutes, longer than a message handler should take. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(5);

    /** The largest accepted attempt limit: attempts are counted by one claim each. */
    public static final int MAX_MAX_ATTEMPTS = 100;

    private final int maxAttempts;
    private final Duration retention;
    private final Duration lease;

    /** Values given directly, for programmatic use. */
    public MessageSettings(int maxAttempts, Duration retention, Duration lease) {
        this.maxAttempts = checkAttempts(MAX_ATTEMPTS, maxAttempts);
        this.retention = retention;
        this.lease = lease;
    }

    /**
     * Reads and checks the keys.
     *
     * @throws IdempotencyConfigurationException naming the first invalid key and its fix
     */
    public static MessageSettings from(ConfigLookup s) {
        return new MessageSettings(
                s.intBetween(MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS, 1, MAX_MAX_ATTEMPTS),
                s.duration(RETENTION, DEFAULT_RETENTION),
                s.duration(LEASE, DEFAULT_LEASE));
    }

    /**
     * Checks an attempt limit.
     *
     * @param source the config key or annotation member it came from, for the message
     */
    public static int checkAttempts(String source, int n) {
        if (n < 1 || n > MAX_MAX_ATTEMPTS) {
            throw new IdempotencyConfigurationException("'" + source + "' is " + n + "; set a whole number from 1 to "
                    + MAX_MAX_ATTEMPTS + " (default " + DEFAULT_MAX_ATTEMPTS + ").");
        }
        return n;
    }

    /** The default attempt limit. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** How long outcomes and attempt histories are kept. */
    public Duration retention() {
        return retention;
    }

    /** How long one delivery may process before another may take over. */
    public Duration lease() {
        return lease;
    }
}
