package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyInProgressException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a refusal tells the client, without a JAX-RS runtime (the details, not the responses). */
class ProblemsTest {

    @Test
    void anInProgressDetailSaysTheDelayRetryAfterSays() {
        // Retry-After is never below 1 s (Problems.retryAfterSeconds); the detail must not say 0.
        IdempotencyInProgressException e =
                new IdempotencyInProgressException("payments.charge", "abc123", Duration.ofMillis(0));
        assertThat(Problems.retryAfterSeconds(e.retryAfter())).isEqualTo(1);
        assertThat(e.getMessage()).contains("retry in about 1 s").doesNotContain("about 0 s");
        IdempotencyInProgressException later =
                new IdempotencyInProgressException("payments.charge", "abc123", Duration.ofMillis(2_100));
        assertThat(later.getMessage()).contains("retry in about 3 s");
    }

    @Test
    void aStoreUnavailableDetailNamesTheOperationAndTheFixOnly() {
        assertThat(Problems.storeUnavailableDetail("payments.charge"))
                .contains("'payments.charge' did not run", "idempotency.store")
                .doesNotContain("Exception");
    }
}
