package dev.idempotency.spi;

import dev.idempotency.IdempotencyConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Where configuration comes from: MicroProfile Config in a container, a map in unit tests. Keeps core
 * free of any container API.
 *
 * <p>The typed readers ({@link #bool}, {@link #intBetween}, {@link #duration(String, Duration)}, {@link
 * #enumOf}, ...) are the one place a value's text is read: a value that is unset or blank means the
 * default, surrounding spaces are ignored, and an invalid value fails with one message form, {@code
 * Config key 'K' is 'V'; <what it must be> (default D).}
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
     * The value of a key without surrounding spaces, or empty when it is unset or blank.
     *
     * @param key the config key
     */
    default Optional<String> text(String key) {
        return get(key).map(String::trim).filter(t -> !t.isEmpty());
    }

    /**
     * The boolean a key holds ({@code true} or {@code false}, any case), or {@code fallback} when it is
     * unset or blank; fails naming the key otherwise.
     *
     * @param key the config key
     * @param fallback the default
     */
    default boolean bool(String key, boolean fallback) {
        Optional<String> text = text(key);
        if (text.isEmpty()) {
            return fallback;
        }
        String t = text.get();
        if (t.equalsIgnoreCase("true")) {
            return true;
        }
        if (t.equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(key, t, "use true or false", fallback, null);
    }

    /**
     * The positive whole number a key holds, or {@code fallback} when it is unset or blank; fails naming
     * the key otherwise. Same as {@code intBetween(key, fallback, 1, Integer.MAX_VALUE)}.
     *
     * @param key the config key
     * @param fallback the default
     */
    default int positiveInt(String key, int fallback) {
        return intBetween(key, fallback, 1, Integer.MAX_VALUE);
    }

    /**
     * The whole number from {@code min} to {@code max} (both included) a key holds, or {@code fallback}
     * when it is unset or blank; fails naming the key and the range otherwise. Digits may be grouped
     * with underscores ({@code 100_000}).
     *
     * @param key the config key
     * @param fallback the default
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    default int intBetween(String key, int fallback, int min, int max) {
        return (int) whole(key, fallback, min, max, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /**
     * The whole number from {@code min} to {@code max} (both included) a key holds, or {@code fallback}
     * when it is unset or blank; fails naming the key and the range otherwise. Digits may be grouped
     * with underscores ({@code 67_108_864}).
     *
     * @param key the config key
     * @param fallback the default
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    default long longBetween(String key, long fallback, long min, long max) {
        return whole(key, fallback, min, max, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * The positive ISO-8601 duration ({@code PT30S}, {@code PT24H}, {@code P7D}) a key holds, or {@code
     * fallback} when it is unset or blank; fails naming the key otherwise, also for zero and negative
     * durations.
     *
     * @param key the config key
     * @param fallback the default
     */
    default Duration duration(String key, Duration fallback) {
        return duration(key, fallback, Duration.ZERO, false);
    }

    /**
     * The ISO-8601 duration of at least {@code min} a key holds, or {@code fallback} when it is unset or
     * blank; fails naming the key otherwise. {@code durationAtLeast(key, fallback, Duration.ZERO)} accepts
     * {@code PT0S}, which {@link #duration(String, Duration)} refuses.
     *
     * @param key the config key
     * @param fallback the default
     * @param min the shortest accepted duration
     */
    default Duration durationAtLeast(String key, Duration fallback, Duration min) {
        return duration(key, fallback, min, true);
    }

    /**
     * The constant of {@code type} a key names (any case, such as {@code wait} for {@code WAIT}), or
     * {@code fallback} when it is unset or blank; fails naming the key and every constant otherwise.
     *
     * @param key the config key
     * @param type the enum
     * @param fallback the default
     * @param <E> the enum
     */
    default <E extends Enum<E>> E enumOf(String key, Class<E> type, E fallback) {
        Optional<String> text = text(key);
        if (text.isEmpty()) {
            return fallback;
        }
        E[] constants = type.getEnumConstants();
        for (E e : constants) {
            if (e.name().equalsIgnoreCase(text.get())) {
                return e;
            }
        }
        String[] names = Arrays.stream(constants).map(Enum::name).toArray(String[]::new);
        String choices = names.length == 1
                ? names[0]
                : String.join(", ", Arrays.copyOf(names, names.length - 1)) + " or " + names[names.length - 1];
        throw invalid(key, text.get(), "use " + choices, fallback == null ? null : fallback.name(), null);
    }

    private Duration duration(String key, Duration fallback, Duration min, boolean minIncluded) {
        Optional<String> text = text(key);
        if (text.isEmpty()) {
            return fallback;
        }
        String rule = minIncluded
                ? "set an ISO-8601 duration of at least " + show(min) + ", such as PT30S, PT24H or P7D"
                : "set a positive ISO-8601 duration such as PT30S, PT24H or P7D";
        Duration d;
        try {
            d = Duration.parse(text.get());
        } catch (DateTimeParseException e) {
            throw invalid(key, text.get(), rule, show(fallback), e);
        }
        int vsMin = d.compareTo(min);
        if (vsMin < 0 || (vsMin == 0 && !minIncluded)) {
            throw invalid(key, text.get(), rule, show(fallback), null);
        }
        return d;
    }

    private long whole(String key, long fallback, long min, long max, long lowest, long highest) {
        Optional<String> text = text(key);
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(text.get().replace("_", ""));
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the range: "abc" and 0 for a positive number get the same fix
        }
        String range;
        if (min == lowest && max == highest) {
            range = "a whole number";
        } else if (max == highest) {
            range = min == 1 ? "a positive whole number" : "a whole number of " + min + " or more";
        } else if (min == lowest) {
            range = "a whole number of at most " + max;
        } else {
            range = "a whole number from " + min + " to " + max;
        }
        throw invalid(key, text.get(), "set " + range, fallback, null);
    }

    /** A duration as a user would write it: {@code P7D} rather than {@code PT168H}, but {@code PT24H}. */
    private static String show(Duration d) {
        if (d != null && d.toHours() > 24 && d.toSeconds() % 86_400 == 0 && d.toNanosPart() == 0) {
            return "P" + d.toDays() + "D";
        }
        return String.valueOf(d);
    }

    private static IdempotencyConfigurationException invalid(
            String key, String text, String rule, Object fallback, Throwable cause) {
        return new IdempotencyConfigurationException(
                "Config key '" + key + "' is '" + text + "'; " + rule + " (default " + fallback + ").", cause);
    }
}
