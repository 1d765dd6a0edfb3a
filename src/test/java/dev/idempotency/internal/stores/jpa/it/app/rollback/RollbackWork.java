package dev.idempotency.internal.stores.jpa.it.app.rollback;

import dev.idempotency.internal.stores.jpa.it.app.BusinessRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * The work the guarded bodies share, in the caller's transaction: count the run, insert an effect row
 * ({@link BusinessRows}, no unique constraint, so a committed double shows), then fail if asked to, by
 * flushing a row whose key exists or by calling the nested step.
 */
@ApplicationScoped
public class RollbackWork {

    /** The id of the row of {@link UniqueRow} that exists: persisting it again fails on flush. */
    public static final String TAKEN = "taken";

    /** How a run ends. */
    public enum Ending {
        /** It returns. */
        SUCCEED,
        /** It flushes a duplicate row: a PersistenceException, and the transaction is marked for rollback. */
        DUPLICATE,
        /** The nested {@code @Transactional} step throws {@link NestedFailure}, which marks the transaction. */
        NESTED
    }

    @PersistenceContext(unitName = "rollback-it")
    EntityManager em;

    @Inject
    BusinessRows rows;

    @Inject
    BodyRuns runs;

    @Inject
    NestedStep nested;

    /** Runs once for the order, ending as asked. */
    public String run(String orderId, Ending ending) {
        runs.ran(orderId);
        rows.insert(orderId);
        switch (ending) {
            case DUPLICATE -> {
                em.persist(new UniqueRow(TAKEN));
                em.flush();
            }
            case NESTED -> nested.fail(orderId);
            case SUCCEED -> {}
        }
        return "placed " + orderId;
    }
}
