package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** A guarded method watched by {@link ProbeInterceptor}. */
@ApplicationScoped
public class ProbedBean {

    /** Returns its key; the probe counts the calls it sees. */
    @Idempotent(name = "it.probe")
    @Probed
    public String call(@IdempotencyKey String key) {
        return key;
    }
}
