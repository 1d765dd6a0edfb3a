package dev.idempotency.internal.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The check of per-operation mode keys that the JPA and Infinispan stores share. */
class OperationKeysTest {

    private static final String MODE = "idempotency.jpa.transaction";
    private static final Set<String> OPERATIONS = Set.of("refunds.create", "POST /orders", "Payments/charge");

    @Test
    void keysThatNameGuardedOperationsAreAcceptedAndReturned() {
        assertThat(JoinedMode.checkOperationKeys(
                        MODE,
                        OPERATIONS,
                        List.of(
                                MODE,
                                MODE + ".refunds.create",
                                MODE + ".POST /orders",
                                "idempotency.lease",
                                "idempotency.infinispan.transaction.elsewhere")))
                .containsExactly("POST /orders", "refunds.create");
    }

    @Test
    void aKeyThatNamesNoGuardedOperationFailsNamingTheKeyAndTheOperations() {
        assertThatThrownBy(() -> JoinedMode.checkOperationKeys(
                        MODE, OPERATIONS, List.of(MODE + ".refunds.create", MODE + ".refunds.creat")))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'" + MODE + ".refunds.creat'")
                .hasMessageContaining("[POST /orders, Payments/charge, refunds.create]")
                .hasMessageContaining(MODE + ".POST\\ /orders");
    }

    @Test
    void anHttpOperationWithoutItsSpaceIsAMisspelling() {
        assertThatThrownBy(() -> JoinedMode.checkOperationKeys(MODE, OPERATIONS, List.of(MODE + ".POST/orders")))
                .isInstanceOf(IdempotencyConfigurationException.class);
    }
}
