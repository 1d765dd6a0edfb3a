package dev.idempotency.spi;

import dev.idempotency.IdempotencyConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * Where configuration comes from: MicroProfile Config in a container, a map in unit tests. Keeps core
 * free of any container API.
 */
@FunctionalInterface
public interface ConfigLookup {

    /** The value of a key, or empty when it is not set. */
    Optional<String> get(String key);

    /** ConfigLookup backed by a map, for tests and programmatic use. */
    static ConfigLookup of(Map<String, String> values) {
        return key -> Optional.ofNullable(values.get(key));
    }

    /** No settings at all: every default applies. */
    static ConfigLookup none() {
        return key -> Optional.empty();
    }

    /**
     * Parses a positive ISO-8601 duration, or fails naming the key and an example.
     *
     * @param key the config key (or annotation member) the text came from
     * @param text the text
     */
    public static Duration duration(String key, String text) {
        Duration d;
        try {
            d = Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IdempotencyConfigurationException(
                    "'" + key + "' is '" + text
                            + "', which is not an ISO-8601 duration; write it like PT30S, PT24H or P7D.",
                    e);
        }
        if (d.isNegative() || d.isZero()) {
            throw new IdempotencyConfigurationException(
                    "'" + key + "' is '" + text + "'; it must be a positive duration such as PT30S, PT24H or P7D.");
        }
        return d;
    }

    /**
     * The boolean a key holds ({@code true} or {@code false}, any case), or {@code fallback} when it is
     * unset or blank; fails naming the key otherwise.
     *
     * @param key the config key
     * @param fallback the default
     */
    default boolean bool(String key, boolean fallback) {
        String text =
                get(key).map(t -> t.trim().toLowerCase(java.util.Locale.ROOT)).orElse("");
        if (text.isEmpty()) {
            return fallback;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IdempotencyConfigurationException(
                "Config key '" + key + "' is '" + text + "'; use true or false (default " + fallback + ").");
    }

    /**
     * The positive whole number a key holds, or {@code fallback} when it is unset or blank; fails naming
     * the key and an example otherwise.
     *
     * @param key the config key
     * @param fallback the default, also the example in the message
     */
    default int positiveInt(String key, int fallback) {
        String text = get(key).map(String::trim).orElse("");
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(text.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the key and the fix
        }
        throw new IdempotencyConfigurationException("Config key '" + key + "' is '" + text
                + "'; set it to a positive whole number such as " + fallback + ".");
    }
}
