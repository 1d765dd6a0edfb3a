package dev.idempotency.stores.jpa.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.stores.jpa.it.app.JoinedOrders;
import dev.idempotency.stores.jpa.it.app.SeparateOrders;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The joined mode's tests, on a database that can join the caller's transaction (every shipped
 * dialect but Derby); the deployment configures {@link JoinedOrders} and {@link SeparateOrders#MISUSED}
 * for it.
 */
abstract class AbstractJoinedJpaStoreIT extends AbstractJpaStoreIT {

    @Test
    void joinedModeRollbackLeavesNeitherBusinessRowNorRecordAndTheRetryRuns() {
        String orderId = "joined-fail-" + System.nanoTime();
        String storeKey = storeKey(JoinedOrders.OPERATION, orderId);

        assertThrows(RuntimeException.class, () -> joined.place(orderId, true));
        assertEquals(0, rows.count(orderId), "the business row rolled back");
        assertEquals(0, rows.records(storeKey), "the record rolled back with it");

        assertEquals("placed " + orderId, joined.place(orderId, false), "the retry runs");
        assertEquals(1, rows.count(orderId));
        assertEquals(1, rows.records(storeKey), "the record committed with the business row");
        assertEquals("placed " + orderId, joined.place(orderId, false), "a repeat replays");
        assertEquals(1, rows.count(orderId));
    }

    @Test
    void joinedModeConcurrentDuplicatesWaitThenReplayAndLeaveOneBusinessRow() throws Exception {
        for (int round = 0; round < 3; round++) {
            String orderId = "joined-race-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> joined.place(orderId, false));
            assertEquals(1, rows.count(orderId), "business rows");
            for (Object o : outcomes) {
                assertEquals("placed " + orderId, o, "every duplicate waited and replayed");
            }
        }
    }

    @Test
    void joinedModeWithoutATransactionAtTheInterceptorFailsNamingTheFix() {
        String orderId = "misused-" + System.nanoTime();
        IdempotencyConfigurationException e =
                assertThrows(IdempotencyConfigurationException.class, () -> separate.misused(orderId));
        assertTrue(e.getMessage().contains("idempotency.interceptor.priority"), e.getMessage());
        assertTrue(e.getMessage().contains(SeparateOrders.MISUSED), e.getMessage());
        assertEquals(0, rows.count(orderId), "the method did not run");
    }
}
