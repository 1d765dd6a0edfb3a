package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;

/** Declares the guard on a method that {@link DispatchBean} overrides. */
public abstract class BaseDispatch {

    /** Dispatches once per id; returns the run's number. */
    @Idempotent
    public abstract int dispatch(@IdempotencyKey String id);
}
