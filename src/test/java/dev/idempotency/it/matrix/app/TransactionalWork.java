package dev.idempotency.it.matrix.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

/**
 * The work of the asynchronous resource methods, run on a managed executor: the effect and the outcome
 * in one transaction, which a {@link Outcome#FATAL} rolls back and a {@link Outcome#DECLINED} commits.
 */
@ApplicationScoped
public class TransactionalWork {

    @Inject
    MatrixEffects effects;

    /** Writes the effect and ends as {@code outcome} says, in a transaction of its own. */
    @Transactional(dontRollbackOn = Declined.class)
    public Response charge(String id, Outcome outcome) {
        return outcome.finish(id, effects.write(id));
    }
}
