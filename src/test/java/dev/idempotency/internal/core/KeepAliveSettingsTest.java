package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The idempotency.keep-alive.* keys: defaults, values, and refusals that name the key. */
class KeepAliveSettingsTest {

    private static GlobalSettings settings(Map<String, String> values) {
        return GlobalSettings.from(ConfigLookup.of(values));
    }

    @Test
    void defaultsAreOnAndOneHour() {
        GlobalSettings s = settings(Map.of());
        assertThat(s.keepAliveEnabled()).isTrue();
        assertThat(s.keepAliveMaxDuration()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void valuesAreRead() {
        GlobalSettings s = settings(Map.of(KeepAlive.ENABLED, " FALSE ", KeepAlive.MAX_DURATION, "PT5M"));
        assertThat(s.keepAliveEnabled()).isFalse();
        assertThat(s.keepAliveMaxDuration()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void invalidValuesFailNamingTheKey() {
        assertThatThrownBy(() -> settings(Map.of(KeepAlive.ENABLED, "yes")).keepAliveEnabled())
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(KeepAlive.ENABLED)
                .hasMessageContaining("true or false");
        assertThatThrownBy(
                        () -> settings(Map.of(KeepAlive.MAX_DURATION, "PT0S")).keepAliveMaxDuration())
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(KeepAlive.MAX_DURATION);
        assertThatThrownBy(() ->
                        settings(Map.of(KeepAlive.MAX_DURATION, "an hour")).keepAliveMaxDuration())
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(KeepAlive.MAX_DURATION);
    }
}
