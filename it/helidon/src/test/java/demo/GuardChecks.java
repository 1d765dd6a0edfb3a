package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyKeyMissingException;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the README promises, checked on the running Helidon app over HTTP and through its CDI beans;
 * each store's class runs them all on a container of its own. Effects are counted in PostgreSQL.
 */
@ExtendWith(Db.class) // before @HelidonTest on the subclass: the schema exists when the store starts
abstract class GuardChecks {

    static final int CONCURRENT = 8;

    @Inject
    WebTarget target;

    URI base() {
        return target.getUri();
    }

    static String key() {
        return "k-" + UUID.randomUUID();
    }

    static String ref() {
        return "r-" + UUID.randomUUID();
    }

    static String order(String ref, long cents, long holdMillis) {
        return "{\"ref\":\"" + ref + "\",\"cents\":" + cents + ",\"holdMillis\":" + holdMillis + "}";
    }

    static <T> T bean(Class<T> type) {
        return CDI.current().select(type).get();
    }

    @Test
    void aRepeatReplaysTheSameStatusAndBody() {
        String key = key();
        String ref = ref();
        HttpResponse<String> first = Http.post(base(), "orders", key, order(ref, 1200, 0));
        assertEquals(201, first.statusCode(), () -> "first POST: " + Http.describe(first));
        assertTrue(first.headers().firstValue("Idempotent-Replayed").isEmpty(), () -> Http.describe(first));

        HttpResponse<String> again = Http.post(base(), "orders", key, order(ref, 1200, 0));
        assertEquals(201, again.statusCode(), () -> "repeat: " + Http.describe(again));
        assertEquals(first.body(), again.body(), "the repeat's body");
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(null), Http.describe(again));
        assertEquals(1, Db.effects("order", ref), "effect rows for one key sent twice");

        HttpResponse<String> other = Http.post(base(), "orders", key(), order(ref, 1200, 0));
        assertEquals(201, other.statusCode(), () -> Http.describe(other));
        assertNotEquals(first.body(), other.body(), "another key runs again");
        assertEquals(2, Db.effects("order", ref), "effect rows after a second key");
    }

    @Test
    void aRepeatWhileTheFirstRunsGets409() throws Exception {
        String key = key();
        String ref = ref();
        CompletableFuture<HttpResponse<String>> first = Http.postAsync(base(), "orders", key, order(ref, 500, 3000));
        awaitEffects("order", ref, 1, first);

        HttpResponse<String> repeat = Http.post(base(), "orders", key, order(ref, 500, 3000));
        assertEquals(409, repeat.statusCode(), () -> "repeat while the first runs: " + Http.describe(repeat));
        assertTrue(repeat.headers().firstValue("Retry-After").isPresent(), () -> Http.describe(repeat));

        HttpResponse<String> done = first.get(Http.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(201, done.statusCode(), () -> "the first: " + Http.describe(done));
        assertEquals(1, Db.effects("order", ref), "effect rows");
    }

    @Test
    void theSameKeyWithAnotherPayloadGets422() {
        String key = key();
        String ref = ref();
        HttpResponse<String> first = Http.post(base(), "orders", key, order(ref, 700, 0));
        assertEquals(201, first.statusCode(), () -> Http.describe(first));

        HttpResponse<String> other = Http.post(base(), "orders", key, order(ref, 701, 0));
        assertEquals(422, other.statusCode(), () -> "same key, other payload: " + Http.describe(other));
        assertEquals(1, Db.effects("order", ref), "effect rows");
    }

    @Test
    void aMissingRequiredKeyGets400ProblemJson() {
        String ref = ref();
        HttpResponse<String> response = Http.post(base(), "orders", null, order(ref, 900, 0));
        assertEquals(400, response.statusCode(), () -> "no Idempotency-Key: " + Http.describe(response));
        assertTrue(
                response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                () -> Http.describe(response));
        assertEquals(0, Db.effects("order", ref), "effect rows of a refused call");
    }

    @Test
    void concurrentRequestsWithOneKeyRunOnce() throws Exception {
        String key = key();
        String ref = ref();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            calls.add(Http.postAsync(base(), "orders", key, order(ref, 300, 500)));
        }
        int created = 0;
        List<String> seen = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.get(Http.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            seen.add(response.statusCode()
                    + response.headers()
                            .firstValue("Idempotent-Replayed")
                            .map(r -> " replayed")
                            .orElse(""));
            if (response.statusCode() == 201) {
                created++;
            } else if (response.statusCode() != 409) {
                fail("a concurrent call got " + Http.describe(response));
            }
        }
        assertTrue(created >= 1, "no call of " + CONCURRENT + " succeeded: " + seen);
        assertEquals(1, Db.effects("order", ref), () -> "effect rows of " + CONCURRENT + " concurrent calls: " + seen);
    }

    @Test
    void theCdiMethodRunsOncePerKey() throws Exception {
        Payments payments = bean(Payments.class);
        String order = ref();
        String receipt = payments.charge(order, 4200);
        assertEquals(receipt, payments.charge(order, 4200), "a repeat gets the first receipt");
        assertEquals(1, Db.effects("charge", order), "charges for one order id called twice");

        assertThrows(IdempotencyKeyMismatchException.class, () -> payments.charge(order, 4300));
        assertThrows(IdempotencyKeyMissingException.class, () -> payments.charge(null, 4200));
        assertEquals(1, Db.effects("charge", order), "charges after a mismatch");

        String other = ref();
        assertNotEquals(receipt, payments.charge(other, 4200), "another order id runs");
        assertEquals(1, Db.effects("charge", other), "charges of the other order id");
    }

    @Test
    void aRecordResultIsReplayedWhole() {
        Payments payments = bean(Payments.class);
        String order = ref();
        Receipt receipt = payments.authorize(order, 990);
        assertEquals(receipt, payments.authorize(order, 990), "a repeat gets the first receipt, whole");
        assertEquals(1, Db.effects("authorize", order), "authorizations for one order id called twice");
    }

    @Test
    void concurrentCdiCallsWithOneKeyRunOnce() throws Exception {
        Payments payments = bean(Payments.class);
        String order = ref();
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < CONCURRENT; i++) {
                calls.add(pool.submit(() -> {
                    start.await();
                    return payments.charge(order, 100);
                }));
            }
            start.countDown();
            List<String> seen = new ArrayList<>();
            for (Future<String> call : calls) {
                try {
                    seen.add(call.get(Http.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof IdempotencyInProgressException)) {
                        throw e;
                    }
                    seen.add("in progress");
                }
            }
            assertEquals(
                    1, Db.effects("charge", order), () -> "charges of " + CONCURRENT + " concurrent calls: " + seen);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterfaceDeclarationGuards() {
        Refunds refunds = bean(Refunds.class);
        String order = ref();
        String first = refunds.refund(order, 150);
        assertEquals(first, refunds.refund(order, 150), "a repeat gets the first refund");
        assertEquals(1, Db.effects("refund", order), "refunds for one order id called twice");
    }

    @Test
    void superclassDeclarationsGuard() {
        CardLedger ledger = bean(CardLedger.class);
        String order = ref();
        String captured = ledger.capture(order, 250);
        assertEquals(captured, ledger.capture(order, 250), "inherited method: a repeat gets the first capture");
        assertEquals(1, Db.effects("capture", order), "captures for one order id called twice");

        String settled = ledger.settle(order, 250);
        assertNotNull(settled);
        assertEquals(settled, ledger.settle(order, 250), "overridden method: a repeat gets the first settlement");
        assertEquals(1, Db.effects("settle", order), "settlements for one order id called twice");
    }

    /** Waits (at most 10 s) until the effect rows reach {@code expected} while the call runs. */
    static void awaitEffects(String kind, String ref, int expected, CompletableFuture<HttpResponse<String>> call)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int seen;
        while ((seen = Db.effects(kind, ref)) < expected) {
            if (call.isDone() || System.nanoTime() > deadline) {
                String answer = call.isDone() ? "the call answered " + Http.describe(call.join()) : "no answer yet";
                fail(seen + " " + kind + " effect rows for " + ref + ", expected " + expected + "; " + answer);
            }
            Thread.sleep(20);
        }
    }
}
