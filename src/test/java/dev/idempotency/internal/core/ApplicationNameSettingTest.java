package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The idempotency.application key: empty by default, trimmed, and a refusal that names the key. */
class ApplicationNameSettingTest {

    private static GlobalSettings settings(Map<String, String> values) {
        return GlobalSettings.from(ConfigLookup.of(values));
    }

    @Test
    void emptyByDefaultAndTrimmed() {
        assertThat(settings(Map.of()).application()).isEmpty();
        assertThat(settings(Map.of(GlobalSettings.APPLICATION, "  ")).application())
                .isEmpty();
        assertThat(settings(Map.of(GlobalSettings.APPLICATION, " orders ")).application())
                .isEqualTo("orders");
    }

    @Test
    void aNameLongerThan200CharactersIsRefusedNamingTheKey() {
        assertThat(settings(Map.of(GlobalSettings.APPLICATION, "a".repeat(200))).application())
                .hasSize(200);
        assertThatThrownBy(() -> settings(Map.of(GlobalSettings.APPLICATION, "a".repeat(201)))
                        .application())
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.APPLICATION)
                .hasMessageContaining("201");
    }
}
