package dev.idempotency.it.http.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A guarded CDI bean called by a guarded resource: it must stay guarded. */
@ApplicationScoped
public class NestedStep {

    @Inject
    Counter counter;

    /** Runs once per id. */
    @Idempotent(name = "it.nested.step")
    public int step(@IdempotencyKey String id) {
        return counter.ran("nested:" + id);
    }

    /** Requires its key and checks its arguments: refusals reach JAX-RS as idempotency exceptions. */
    @Idempotent(name = "it.nested.strict", required = true)
    public String strict(@IdempotencyKey String id, String payload) {
        return "strict " + counter.ran("strict:" + id);
    }
}
