package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The per-operation transaction mode, set as docs/http.md says, reaches the operation it names; the keys read
 * only later are still checked when the settings are read.
 */
class JpaStoreSettingsTest {

    @Test
    void createTableIsCheckedAtDeploymentNotOnlyWhenTheTableIsMissing() {
        assertThat(JpaStoreSettings.from(ConfigLookup.none()).createTable()).isTrue();
        assertThat(JpaStoreSettings.from(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, " ")))
                        .createTable())
                .as("blank is unset")
                .isTrue();
        assertThat(JpaStoreSettings.from(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, "FALSE")))
                        .createTable())
                .isFalse();
        assertThatThrownBy(() ->
                        JpaStoreSettings.from(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, "no"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'" + JpaStoreSettings.CREATE_TABLE + "' is 'no'")
                .hasMessageContaining("true or false");
    }

    private static java.util.Map<String, String> toMap(Properties p) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }
}
