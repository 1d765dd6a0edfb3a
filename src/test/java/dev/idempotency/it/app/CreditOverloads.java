package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Two overloads under one class-level name: two operations. */
@ApplicationScoped
@Idempotent(name = "it.credits")
public class CreditOverloads {

    @Inject
    ExecutionCounter counter;

    /** A full credit; returns the run's number. */
    public int credit(@IdempotencyKey String id) {
        return counter.ran("credit:" + id);
    }

    /** A partial credit under the same key value; returns the run's number. */
    public int credit(@IdempotencyKey String id, int cents) {
        return counter.ran("credit:" + id);
    }
}
