package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.InProgressPolicy;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.function.Function;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * The typed readers: unset and blank mean the default, spaces around a value do not count, and every
 * invalid value fails with one message form that names the key, the value, the rule and the default.
 */
class ConfigLookupTest {

    private static final String KEY = "idempotency.test.key";

    private static ConfigLookup with(String value) {
        return ConfigLookup.of(Map.of(KEY, value));
    }

    /** Every reader returns its default for an unset key and for a blank value. */
    private static <T> void defaultWhenUnsetOrBlank(Function<ConfigLookup, T> read, T fallback) {
        assertThat(read.apply(ConfigLookup.none())).isEqualTo(fallback);
        assertThat(read.apply(with(""))).isEqualTo(fallback);
        assertThat(read.apply(with("  \t"))).isEqualTo(fallback);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> invalid(
            Function<ConfigLookup, ?> read, String value) {
        return assertThatThrownBy(() -> read.apply(with(value)))
                .as(value)
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageStartingWith("Config key '" + KEY + "' is '" + value.trim() + "'; ");
    }

    @Test
    void textIsTrimmedAndBlankIsUnset() {
        assertThat(ConfigLookup.none().text(KEY)).isEmpty();
        assertThat(with("").text(KEY)).isEmpty();
        assertThat(with("   ").text(KEY)).isEmpty();
        assertThat(with("  orders ").text(KEY)).contains("orders");
    }

    @Test
    void bool() {
        defaultWhenUnsetOrBlank(s -> s.bool(KEY, true), true);
        defaultWhenUnsetOrBlank(s -> s.bool(KEY, false), false);
        assertThat(with("true").bool(KEY, false)).isTrue();
        assertThat(with(" TRUE ").bool(KEY, false)).isTrue();
        assertThat(with("False").bool(KEY, true)).isFalse();
        for (String bad : new String[] {"yes", "1", "on", "truee"}) {
            invalid(s -> s.bool(KEY, false), bad).hasMessageEndingWith("; use true or false (default false).");
        }
    }

    @Test
    void positiveInt() {
        defaultWhenUnsetOrBlank(s -> s.positiveInt(KEY, 16), 16);
        assertThat(with("1").positiveInt(KEY, 16)).isEqualTo(1);
        assertThat(with(" 100_000 ").positiveInt(KEY, 16)).isEqualTo(100_000);
        assertThat(with(String.valueOf(Integer.MAX_VALUE)).positiveInt(KEY, 16)).isEqualTo(Integer.MAX_VALUE);
        for (String bad : new String[] {"0", "-1", "abc", "1.5", "2147483648", "_"}) {
            invalid(s -> s.positiveInt(KEY, 16), bad)
                    .hasMessageEndingWith("; set a positive whole number (default 16).");
        }
    }

    @Test
    void intBetween() {
        defaultWhenUnsetOrBlank(s -> s.intBetween(KEY, 255, 1, 8192), 255);
        assertThat(with("1").intBetween(KEY, 255, 1, 8192)).isEqualTo(1);
        assertThat(with("8192").intBetween(KEY, 255, 1, 8192)).isEqualTo(8192);
        assertThat(with("-5").intBetween(KEY, 0, -10, 10)).isEqualTo(-5);
        for (String bad : new String[] {"0", "8193", "ten", "99999999999", "1e3"}) {
            invalid(s -> s.intBetween(KEY, 255, 1, 8192), bad)
                    .hasMessageEndingWith("; set a whole number from 1 to 8192 (default 255).");
        }
        invalid(s -> s.intBetween(KEY, 0, 0, Integer.MAX_VALUE), "-1")
                .hasMessageEndingWith("; set a whole number of 0 or more (default 0).");
        invalid(s -> s.intBetween(KEY, 0, Integer.MIN_VALUE, 10), "11")
                .hasMessageEndingWith("; set a whole number of at most 10 (default 0).");
        assertThat(with("-2147483648").intBetween(KEY, 100, Integer.MIN_VALUE, Integer.MAX_VALUE))
                .isEqualTo(Integer.MIN_VALUE);
        invalid(s -> s.intBetween(KEY, 100, Integer.MIN_VALUE, Integer.MAX_VALUE), "high")
                .hasMessageEndingWith("; set a whole number (default 100).");
    }

    @Test
    void longBetween() {
        defaultWhenUnsetOrBlank(s -> s.longBetween(KEY, 67_108_864L, 1, Long.MAX_VALUE), 67_108_864L);
        assertThat(with("67_108_864").longBetween(KEY, 1L, 1, Long.MAX_VALUE)).isEqualTo(67_108_864L);
        assertThat(with("9223372036854775807").longBetween(KEY, 1L, 1, Long.MAX_VALUE))
                .isEqualTo(Long.MAX_VALUE);
        for (String bad : new String[] {"0", "64MB", "9223372036854775808"}) {
            invalid(s -> s.longBetween(KEY, 100_000L, 1, Long.MAX_VALUE), bad)
                    .hasMessageEndingWith("; set a positive whole number (default 100000).");
        }
        invalid(s -> s.longBetween(KEY, 5L, 2, 9), "10")
                .hasMessageEndingWith("; set a whole number from 2 to 9 (default 5).");
    }

    @Test
    void duration() {
        defaultWhenUnsetOrBlank(s -> s.duration(KEY, Duration.ofMinutes(1)), Duration.ofMinutes(1));
        assertThat(with(" PT30S ").duration(KEY, Duration.ofMinutes(1))).isEqualTo(Duration.ofSeconds(30));
        assertThat(with("p7d").duration(KEY, Duration.ofMinutes(1))).isEqualTo(Duration.ofDays(7));
        assertThat(with("PT0.001S").duration(KEY, Duration.ofMinutes(1))).isEqualTo(Duration.ofMillis(1));
        for (String bad : new String[] {"PT0S", "-PT1S", "30s", "1000", "P1M"}) {
            invalid(s -> s.duration(KEY, Duration.ofMinutes(1)), bad)
                    .hasMessageEndingWith(
                            "; set a positive ISO-8601 duration such as PT30S, PT24H or P7D (default PT1M).");
        }
        invalid(s -> s.duration(KEY, Duration.ofMinutes(1)), "30s").hasCauseInstanceOf(DateTimeParseException.class);
        // A default of whole days is shown as written: P7D, not PT168H; one day stays PT24H.
        invalid(s -> s.duration(KEY, Duration.ofDays(7)), "x").hasMessageEndingWith("(default P7D).");
        invalid(s -> s.duration(KEY, Duration.ofHours(24)), "x").hasMessageEndingWith("(default PT24H).");
    }

    @Test
    void durationAtLeast() {
        defaultWhenUnsetOrBlank(
                s -> s.durationAtLeast(KEY, Duration.ofSeconds(1), Duration.ZERO), Duration.ofSeconds(1));
        assertThat(with("PT0S").durationAtLeast(KEY, Duration.ofSeconds(1), Duration.ZERO))
                .isZero();
        assertThat(with("PT1S").durationAtLeast(KEY, Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isEqualTo(Duration.ofSeconds(1));
        for (String bad : new String[] {"-PT1S", "1s"}) {
            invalid(s -> s.durationAtLeast(KEY, Duration.ofSeconds(1), Duration.ZERO), bad)
                    .hasMessageEndingWith(
                            "; set an ISO-8601 duration of at least PT0S, such as PT30S, PT24H or P7D (default PT1S).");
        }
        invalid(s -> s.durationAtLeast(KEY, Duration.ofSeconds(5), Duration.ofSeconds(1)), "PT0.5S")
                .hasMessageContaining("at least PT1S");
    }

    @Test
    void enumOf() {
        defaultWhenUnsetOrBlank(
                s -> s.enumOf(KEY, InProgressPolicy.class, InProgressPolicy.REJECT), InProgressPolicy.REJECT);
        assertThat(with("WAIT").enumOf(KEY, InProgressPolicy.class, InProgressPolicy.REJECT))
                .isEqualTo(InProgressPolicy.WAIT);
        assertThat(with(" wait ").enumOf(KEY, InProgressPolicy.class, InProgressPolicy.REJECT))
                .isEqualTo(InProgressPolicy.WAIT);
        for (String bad : new String[] {"QUEUE", "WAIT_", "0"}) {
            invalid(s -> s.enumOf(KEY, InProgressPolicy.class, InProgressPolicy.REJECT), bad)
                    .hasMessageEndingWith("; use REJECT or WAIT (default REJECT).");
        }
        invalid(s -> s.enumOf(KEY, Level.class, Level.HIGH), "max")
                .hasMessageEndingWith("; use LOW, MIDDLE or HIGH (default HIGH).");
    }

    private enum Level {
        LOW,
        MIDDLE,
        HIGH
    }
}
