package dev.idempotency.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.messaging.MessageSettings;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.tokens.TokenSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The idempotency.tokens.* and idempotency.messages.* keys: defaults, and errors that name the key. */
class ToolkitSettingsTest {

    @Test
    void tokenDefaults() {
        TokenSettings t = TokenSettings.from(ConfigLookup.none());
        assertThat(t.ttl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(t.header()).isEqualTo("Idempotency-Token");
        assertThat(t.endpointEnabled()).isFalse();
        assertThat(t.owner()).isEqualTo("principal");
    }

    @Test
    void invalidTokenKeysNameTheKey() {
        Map<String, String> bad = Map.of(
                TokenSettings.TTL, "ten minutes",
                TokenSettings.HEADER, "Bad Header",
                TokenSettings.ENDPOINT_ENABLED, "yes",
                TokenSettings.OWNER, "cookie:JSESSIONID");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            assertThatThrownBy(() -> TokenSettings.from(ConfigLookup.of(Map.of(e.getKey(), e.getValue()))))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(e.getKey());
        }
        assertThat(TokenSettings.from(ConfigLookup.of(Map.of(TokenSettings.OWNER, "header:X-Session")))
                        .owner())
                .isEqualTo("header:X-Session");
    }

    @Test
    void messageDefaultsAndInvalidKeys() {
        MessageSettings m = MessageSettings.from(ConfigLookup.none());
        assertThat(m.maxAttempts()).isEqualTo(3);
        assertThat(m.retention()).isEqualTo(Duration.ofDays(7));
        assertThat(m.lease()).isEqualTo(Duration.ofMinutes(5));
        for (String v : new String[] {"0", "101", "three"}) {
            assertThatThrownBy(() -> MessageSettings.from(ConfigLookup.of(Map.of(MessageSettings.MAX_ATTEMPTS, v))))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(MessageSettings.MAX_ATTEMPTS);
        }
        assertThatThrownBy(() -> MessageSettings.from(ConfigLookup.of(Map.of(MessageSettings.LEASE, "PT0S"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(MessageSettings.LEASE);
    }
}
