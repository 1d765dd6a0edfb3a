package demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.microprofile.testing.junit5.AddBean;
import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A guarded resource method reached without the library's HTTP filter refuses, or guards the call
 * itself: one key sent twice never runs twice.
 */
@ExtendWith(Db.class)
@HelidonTest
@AddBean(NoFilterApplication.class)
@AddConfig(key = "idempotency.store", value = "memory")
class NoFilterTest {

    @Inject
    WebTarget target;

    @Test
    void aRequestNoFilterClaimedDoesNotRunUnguarded() {
        String key = GuardChecks.key();
        String ref = GuardChecks.ref();
        HttpResponse<String> first = Http.post(target.getUri(), "orders", key, GuardChecks.order(ref, 100, 0));
        HttpResponse<String> again = Http.post(target.getUri(), "orders", key, GuardChecks.order(ref, 100, 0));
        int runs = Db.effects("order", ref);
        String seen = Http.describe(first) + " / " + Http.describe(again);
        assertTrue(runs <= 1, () -> "one key ran " + runs + " times without the filter: " + seen);
        if (runs == 0) {
            assertTrue(
                    first.statusCode() >= 400 && again.statusCode() >= 400,
                    () -> "a call that did not run answered as if it had: " + seen);
        }
        System.out.println("without the filter: " + runs + " runs; " + seen);
    }
}
