package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The joined mode's promises on {@code POST /joined-orders}: effect and record commit or roll back as one. */
@ExtendWith(Db.class) // before @HelidonTest on the subclass: the schema exists when the store starts
abstract class JoinedChecks {

    @Inject
    WebTarget target;

    URI base() {
        return target.getUri();
    }

    @Test
    void theEffectAndTheRecordCommitTogether() {
        String key = GuardChecks.key();
        String ref = GuardChecks.ref();
        HttpResponse<String> first = Http.post(base(), "joined-orders", key, GuardChecks.order(ref, 100, 0));
        assertEquals(201, first.statusCode(), () -> "first POST: " + Http.describe(first));
        assertEquals(1, Db.effects("joined", ref), "effect rows after the commit");
        assertEquals(1, Db.records(), "records after the commit");

        HttpResponse<String> again = Http.post(base(), "joined-orders", key, GuardChecks.order(ref, 100, 0));
        assertEquals(201, again.statusCode(), () -> "repeat: " + Http.describe(again));
        assertEquals(first.body(), again.body(), "the repeat's body");
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(null), Http.describe(again));
        assertEquals(1, Db.effects("joined", ref), "effect rows after the replay");
    }

    @Test
    void aFailureRollsBackTheEffectAndTheClaim() {
        String key = GuardChecks.key();
        String ref = GuardChecks.ref();
        CDI.current().select(FailSwitch.class).get().failNext(1);
        HttpResponse<String> failed = Http.post(base(), "joined-orders", key, GuardChecks.order(ref, 200, 0));
        assertEquals(500, failed.statusCode(), () -> "the failing call: " + Http.describe(failed));
        assertEquals(0, Db.effects("joined", ref), "effect rows after the rollback");
        assertEquals(0, Db.records(), "records after the rollback: the claim rolled back with the effect");

        HttpResponse<String> retry = Http.post(base(), "joined-orders", key, GuardChecks.order(ref, 200, 0));
        assertEquals(201, retry.statusCode(), () -> "the retry: " + Http.describe(retry));
        assertTrue(
                retry.headers().firstValue("Idempotent-Replayed").isEmpty(),
                () -> "the retry ran: " + Http.describe(retry));
        assertEquals(1, Db.effects("joined", ref), "effect rows after the retry");
    }

    @Test
    void concurrentJoinedRequestsWithOneKeyRunOnce() throws Exception {
        String key = GuardChecks.key();
        String ref = GuardChecks.ref();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < GuardChecks.CONCURRENT; i++) {
            calls.add(Http.postAsync(base(), "joined-orders", key, GuardChecks.order(ref, 300, 500)));
        }
        List<String> seen = new ArrayList<>();
        int created = 0;
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.get(Http.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            seen.add(String.valueOf(response.statusCode()));
            if (response.statusCode() == 201) {
                created++;
            } else if (response.statusCode() != 409) {
                fail("a concurrent joined call got " + Http.describe(response));
            }
        }
        assertTrue(created >= 1, "no call of " + GuardChecks.CONCURRENT + " succeeded: " + seen);
        assertEquals(1, Db.effects("joined", ref), () -> "effect rows of concurrent joined calls: " + seen);
    }
}
