package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.ThreadTransactions;
import jakarta.transaction.Status;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The joined mode looks the JTA registry up where {@code idempotency.transaction-registry} says, as the
 * guard's own settlement does; a JNDI with one name bound stands in for a server that binds it elsewhere.
 */
class JtaRegistryNameTest {

    private static final String ELSEWHERE = "java:global/custom/TransactionSynchronizationRegistry";

    @BeforeEach
    void bind() {
        // A registry that answers, with no transaction active, at the configured name only.
        ThreadTransactions.bind(ELSEWHERE, new ThreadTransactions());
    }

    @AfterEach
    void unbind() {
        ThreadTransactions.unbindAll();
    }

    private static JtaConnections connections(Map<String, String> config) {
        return new JtaConnections(
                null, new JtaTransactionRunner(), JoinedMode.registryName(ConfigLookup.of(config)), false);
    }

    @Test
    void theConfiguredNameIsTheOneLookedUp() {
        // Found at the configured name: the registry answers, and no transaction is active.
        assertThatThrownBy(() -> connections(Map.of(GlobalSettings.TRANSACTION_REGISTRY, ELSEWHERE))
                        .joined(c -> 1, "orders"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("no JTA transaction is active")
                .hasMessageContaining("'idempotency.interceptor.priority' above @Transactional's 200")
                .hasMessageContaining("status " + Status.STATUS_NO_TRANSACTION);
    }

    @Test
    void aRegistryNotFoundIsAnErrorNamingTheNameAndBothKeys() {
        assertThatThrownBy(() -> connections(Map.of()).joined(c -> 1, "orders"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.DEFAULT_TRANSACTION_REGISTRY)
                .hasMessageContaining(GlobalSettings.TRANSACTION_REGISTRY)
                .hasMessageContaining("transaction to separate");
    }
}
