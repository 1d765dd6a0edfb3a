package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The stores' transaction-mode keys fail the deployment, naming the setting that replaced them. */
class RetiredKeysTest {

    @ParameterizedTest
    @ValueSource(strings = {"idempotency.jpa.transaction", "idempotency.infinispan.transaction"})
    void theStoreWideKeyNamesTheGlobalOperationSetting(String key) {
        assertThatThrownBy(() -> RetiredKeys.check(List.of("idempotency.lease", key)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'Idempotent/transaction=<separate|joined>'")
                .hasMessageContaining("@Idempotent(transaction = Participation.JOINED)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"idempotency.jpa.transaction.POST /orders", "idempotency.infinispan.transaction.pay"})
    void anOperationKeyNamesTheOperationAndThePerMethodSetting(String key) {
        String operation = key.substring(key.indexOf(".transaction.") + ".transaction.".length());
        assertThatThrownBy(() -> RetiredKeys.check(List.of(key)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'<class>/<method>/Idempotent/transaction=<separate|joined>'")
                .hasMessageContaining("operation '" + operation + "'");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "idempotency.jpa.transactions",
                "idempotency.jpa.datasource",
                "idempotency.transaction-registry",
                "Idempotent/transaction"
            })
    void otherKeysPass(String key) {
        assertThatCode(() -> RetiredKeys.check(List.of(key))).doesNotThrowAnyException();
    }
}
