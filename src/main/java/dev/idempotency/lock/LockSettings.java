package dev.idempotency.lock;

import dev.idempotency.IdempotencyConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/** Parsing and checks of a lock's name and durations, shared by the API and the deployment validation. */
public final class LockSettings {

    private LockSettings() {}

    /**
     * Parses a lock duration.
     *
     * @param source what the text came from (the annotation and member), for the message
     * @param text an ISO-8601 duration
     * @param zeroAllowed whether {@code PT0S} is accepted
     */
    public static Duration parse(String source, String text, boolean zeroAllowed) {
        Duration d;
        try {
            d = Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IdempotencyConfigurationException(
                    source + " is '" + text + "', which is not an ISO-8601 duration; write it like PT30S or PT10M.", e);
        }
        if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw new IdempotencyConfigurationException(source + " is '" + text + "'; it must be "
                    + (zeroAllowed ? "PT0S or positive" : "positive") + ", such as PT10M.");
        }
        return d;
    }

    /**
     * Checks a lock's name and durations.
     *
     * @param where what declared them, for the message
     */
    public static void check(String name, Duration atMostFor, Duration atLeastFor, String where) {
        if (name == null || name.isBlank()) {
            throw new IdempotencyConfigurationException(where
                    + ": a cluster lock needs a name that is the same on every node, such as \"nightly-report\".");
        }
        if (atMostFor == null || atMostFor.isNegative() || atMostFor.isZero()) {
            throw new IdempotencyConfigurationException(where + ": atMostFor is " + atMostFor
                    + "; set a positive duration longer than the job's longest run, such as PT10M.");
        }
        if (atLeastFor == null || atLeastFor.isNegative() || atLeastFor.compareTo(atMostFor) > 0) {
            throw new IdempotencyConfigurationException(where + ": atLeastFor is " + atLeastFor
                    + "; set it from PT0S up to atMostFor (" + atMostFor + ").");
        }
    }
}
