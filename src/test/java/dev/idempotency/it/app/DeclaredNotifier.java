package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;

/** {@code @Idempotent} declared on an interface method only, as generated and shared APIs do. */
public interface DeclaredNotifier {

    /** Notifies once per id; returns the run's number. */
    @Idempotent(required = true)
    int notifyProvider(@IdempotencyKey String id);
}
