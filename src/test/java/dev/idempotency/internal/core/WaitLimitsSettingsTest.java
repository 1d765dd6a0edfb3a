package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** The idempotency.wait.* keys: defaults, values, and refusals that name the key and the fix. */
class WaitLimitsSettingsTest {

    /** Each key with the bound it sets. */
    private static final Map<String, ToIntFunction<WaitLimits>> KEYS = Map.of(
            GlobalSettings.WAIT_MAX_TOTAL, WaitLimits::maxTotal,
            GlobalSettings.WAIT_MAX_PER_KEY, WaitLimits::maxPerKey,
            GlobalSettings.WAIT_MAX_PER_OPERATION, WaitLimits::maxPerOperation,
            GlobalSettings.WAIT_MAX_PER_CALLER, WaitLimits::maxPerCaller,
            GlobalSettings.WAIT_MAX_JOINED, WaitLimits::maxJoined);

    private static WaitLimits limits(Map<String, String> values) {
        return GlobalSettings.from(ConfigLookup.of(values)).waitLimits();
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        assertThat(limits(Map.of())).isEqualTo(new WaitLimits(64, 16, 32, 16, 8));
        assertThat(WaitLimits.DEFAULT).isEqualTo(new WaitLimits(64, 16));
    }

    @Test
    void eachKeySetsItsOwnBoundAndNoOther() {
        KEYS.forEach((key, bound) -> {
            WaitLimits read = limits(Map.of(key, " 3 "));
            assertThat(bound.applyAsInt(read)).as(key).isEqualTo(3);
            KEYS.forEach((other, otherBound) -> {
                if (!other.equals(key)) {
                    assertThat(otherBound.applyAsInt(read))
                            .as(other + " when only " + key + " is set")
                            .isEqualTo(otherBound.applyAsInt(WaitLimits.DEFAULT));
                }
            });
        });
        assertThat(limits(Map.of(GlobalSettings.WAIT_MAX_TOTAL, "1_000")).maxTotal())
                .isEqualTo(1000);
    }

    @Test
    void anInvalidValueFailsNamingTheKeyAndWhatToSet() {
        for (String key : KEYS.keySet()) {
            for (String bad : List.of("0", "-1", "many", "2.5", "99999999999")) {
                assertThatThrownBy(() -> limits(Map.of(key, bad)))
                        .as(key + "=" + bad)
                        .isInstanceOf(IdempotencyConfigurationException.class)
                        .hasMessageContaining("'" + key + "'")
                        .hasMessageContaining(bad);
            }
        }
    }

    @Test
    void theConstructorRefusesABoundBelowOneNamingItsKey() {
        assertThatThrownBy(() -> new WaitLimits(64, 16, 32, 0, 8))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.WAIT_MAX_PER_CALLER)
                .hasMessageContaining("positive number");
        assertThatThrownBy(() -> new WaitLimits(64, 16, 32, 16, -2))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.WAIT_MAX_JOINED);
        assertThatThrownBy(() -> new WaitLimits(64, 16, 0, 16, 8))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.WAIT_MAX_PER_OPERATION);
    }
}
