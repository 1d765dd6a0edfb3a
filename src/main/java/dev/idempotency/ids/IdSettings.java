package dev.idempotency.ids;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The {@code idempotency.ids.*} keys, their defaults and parsed values; read at deployment, so an
 * invalid value fails it with a message naming the key.
 */
public final class IdSettings {

    /** This node's worker id, 0 to 1023: unique per node that generates ids. */
    public static final String WORKER_ID = "idempotency.ids.worker-id";
    /** The instant ids count milliseconds from, ISO-8601 ({@code 2024-01-01T00:00:00Z}). */
    public static final String EPOCH = "idempotency.ids.epoch";
    /** How far the clock may step back before id generation fails instead of continuing. */
    public static final String MAX_CLOCK_BACKWARD = "idempotency.ids.max-clock-backward";

    /** Default of {@link #WORKER_ID}: 0, which is right for one node only. */
    public static final int DEFAULT_WORKER_ID = 0;
    /** Default of {@link #EPOCH}. */
    public static final Instant DEFAULT_EPOCH = Instant.parse("2024-01-01T00:00:00Z");
    /** Default of {@link #MAX_CLOCK_BACKWARD}: one second, beyond what NTP slewing produces. */
    public static final Duration DEFAULT_MAX_CLOCK_BACKWARD = Duration.ofSeconds(1);

    private final int workerId;
    private final Instant epoch;
    private final Duration maxClockBackward;

    private IdSettings(ConfigLookup s) {
        workerId = s.intBetween(WORKER_ID, DEFAULT_WORKER_ID, 0, SnowflakeIds.MAX_WORKER_ID);
        String e = s.text(EPOCH).orElse("");
        if (e.isEmpty()) {
            epoch = DEFAULT_EPOCH;
        } else {
            try {
                epoch = Instant.parse(e);
            } catch (DateTimeParseException ex) {
                throw new IdempotencyConfigurationException(
                        "Config key '" + EPOCH + "' is '" + e + "'; write an ISO-8601 instant such as " + DEFAULT_EPOCH
                                + ".",
                        ex);
            }
            if (epoch.isAfter(Instant.now())) {
                throw new IdempotencyConfigurationException("Config key '" + EPOCH + "' is " + e
                        + ", in the future; ids count milliseconds from it, so it must be in the past, such as "
                        + DEFAULT_EPOCH + ".");
            }
        }
        // PT0S is valid: generation then fails at any step back.
        maxClockBackward = s.durationAtLeast(MAX_CLOCK_BACKWARD, DEFAULT_MAX_CLOCK_BACKWARD, Duration.ZERO);
    }

    /**
     * Reads and checks the keys.
     *
     * @throws IdempotencyConfigurationException naming the first invalid key and its fix
     */
    public static IdSettings from(ConfigLookup settings) {
        return new IdSettings(settings);
    }

    /** The worker id. */
    public int workerId() {
        return workerId;
    }

    /** The epoch. */
    public Instant epoch() {
        return epoch;
    }

    /** The bound on a backward clock step. */
    public Duration maxClockBackward() {
        return maxClockBackward;
    }

    /** A generator with these settings. */
    public SnowflakeIds generator() {
        return new SnowflakeIds(workerId, epoch, maxClockBackward);
    }
}
