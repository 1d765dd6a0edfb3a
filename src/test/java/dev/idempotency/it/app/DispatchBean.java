package dev.idempotency.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Overrides a guarded superclass method without repeating {@code @Idempotent}. */
@ApplicationScoped
public class DispatchBean extends BaseDispatch {

    @Inject
    ExecutionCounter counter;

    @Override
    public int dispatch(String id) {
        return counter.ran("dispatch:" + id);
    }
}
