package dev.idempotency.internal.stores.jpa.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.stores.jpa.it.app.JoinedOrders;
import dev.idempotency.internal.stores.jpa.it.app.JoinedOrdersResource;
import dev.idempotency.internal.stores.jpa.it.app.SeparateOrders;
import dev.idempotency.it.Deployments;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.test.api.ArquillianResource;
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

    // ------------------------------------------------------------------ joined mode on a JAX-RS resource

    @ArquillianResource
    URL deployed;

    private final HttpClient client = Deployments.httpClient();

    private HttpResponse<String> post(String orderId, String key, boolean fail) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        Deployments.loopback(deployed).resolve("api/joined-orders"))
                .header("Content-Type", "text/plain")
                .header("Idempotency-Key", key)
                .header("X-Fail", Boolean.toString(fail))
                .timeout(Duration.ofMinutes(1))
                .POST(HttpRequest.BodyPublishers.ofString(orderId))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The record of a key sent by an unauthenticated client (the filter's default scope). */
    private static String httpStoreKey(String key) {
        return RecordKey.of(JoinedOrdersResource.OPERATION, "anonymous", key).storeKey();
    }

    /**
     * The filter begins the transaction the resource's {@code @Transactional} work joins: a failure
     * after the business INSERT leaves neither the row nor a record and the retry runs; a success
     * commits both, and a repeat replays without a second row.
     */
    @Test
    void joinedModeOnAResourceCommitsTheBusinessRowAndTheRecordTogether() throws Exception {
        String orderId = "http-joined-" + System.nanoTime();
        String key = UUID.randomUUID().toString();

        HttpResponse<String> failed = post(orderId, key, true);
        assertTrue(failed.statusCode() >= 500, () -> "an unmapped exception: " + failed.statusCode());
        assertEquals(0, rows.count(orderId), "the business row rolled back");
        assertEquals(0, rows.records(httpStoreKey(key)), "the claim rolled back with it");

        HttpResponse<String> ok = post(orderId, key, false);
        assertEquals(201, ok.statusCode(), ok::body);
        assertEquals("placed " + orderId, ok.body(), "the retry runs");
        assertEquals(1, rows.count(orderId));
        assertEquals(1, rows.records(httpStoreKey(key)), "the record committed with the business row");

        HttpResponse<String> again = post(orderId, key, false);
        assertEquals(201, again.statusCode(), again::body);
        assertEquals("placed " + orderId, again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""), "a repeat replays");
        assertEquals(1, rows.count(orderId), "no second business row");
    }

    /** Concurrent duplicates on a joined resource: one business row, every answer the run, a replay or 409. */
    @Test
    void joinedModeOnAResourceRunsConcurrentDuplicatesOnce() throws Exception {
        for (int round = 0; round < 3; round++) {
            String orderId = "http-joined-race-" + round + "-" + System.nanoTime();
            String key = UUID.randomUUID().toString();
            List<Object> outcomes = race(() -> post(orderId, key, false));
            int created = 0;
            for (Object o : outcomes) {
                assertTrue(o instanceof HttpResponse<?>, () -> "a response, not " + o);
                HttpResponse<?> r = (HttpResponse<?>) o;
                if (r.statusCode() == 201) {
                    assertEquals("placed " + orderId, r.body());
                    created++;
                } else {
                    assertEquals(409, r.statusCode(), () -> "201 or 409, not " + r.statusCode() + ": " + r.body());
                }
            }
            assertTrue(created >= 1, "someone ran it");
            assertEquals(1, rows.count(orderId), "business rows");
            assertEquals(1, rows.records(httpStoreKey(key)), "one record");
        }
    }
}
