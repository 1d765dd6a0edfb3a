package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The per-operation transaction mode, set as docs/http.md says, reaches the operation it names; the keys read
 * only later are still checked when the settings are read.
 */
class JpaStoreSettingsTest {

    @Test
    void theDocumentedPropertiesSelectTheJoinedModeOfARouteAndOfANamedOperation() throws IOException {
        String doc = Files.readString(Path.of("docs/http.md"));
        Matcher m = Pattern.compile("```properties\\n(idempotency\\.jpa\\.transaction\\.POST[^`]*)```")
                .matcher(doc);
        assertThat(m.find())
                .as("docs/http.md has the properties snippet for a route")
                .isTrue();
        // Parsed as a microprofile-config.properties file is: java.util.Properties rules.
        Properties p = new Properties();
        p.load(new StringReader(m.group(1)));
        JpaStoreSettings settings = new JpaStoreSettings(key -> Optional.ofNullable(p.getProperty(key)));
        assertThat(settings.mode("POST /orders")).isEqualTo(TransactionMode.JOINED);
        assertThat(settings.mode("orders.place")).isEqualTo(TransactionMode.JOINED);
        assertThat(settings.mode("POST /other")).isEqualTo(TransactionMode.SEPARATE);
        // The unescaped form that the docs used to suggest names no operation: the space ends the key.
        Properties unescaped = new Properties();
        unescaped.load(new StringReader("idempotency.jpa.transaction.POST /orders=joined\n"));
        assertThat(new JpaStoreSettings(ConfigLookup.of(toMap(unescaped))).mode("POST /orders"))
                .isEqualTo(TransactionMode.SEPARATE);
    }

    @Test
    void createTableIsCheckedAtDeploymentNotOnlyWhenTheTableIsMissing() {
        assertThat(new JpaStoreSettings(ConfigLookup.none()).createTable()).isTrue();
        assertThat(new JpaStoreSettings(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, " ")))
                        .createTable())
                .as("blank is unset")
                .isTrue();
        assertThat(new JpaStoreSettings(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, "FALSE")))
                        .createTable())
                .isFalse();
        assertThatThrownBy(() ->
                        new JpaStoreSettings(ConfigLookup.of(java.util.Map.of(JpaStoreSettings.CREATE_TABLE, "no"))))
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
