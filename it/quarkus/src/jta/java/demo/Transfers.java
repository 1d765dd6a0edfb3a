package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Guarded CDI methods called inside the callers' JTA transactions ({@link TransfersResource}). */
@ApplicationScoped
public class Transfers {

    @Inject
    Executions executions;

    /** Its record is written outside the caller's transaction, its outcome stored when that commits. */
    @Idempotent(name = "transfers.separate", required = true)
    public String separate(@IdempotencyKey String ref) {
        executions.ran("transfers-separate", ref);
        return ref;
    }

    /** Its record is written in the caller's transaction, and goes with it. */
    @Idempotent(name = "transfers.joined", required = true, transaction = Participation.JOINED)
    public String joined(@IdempotencyKey String ref) {
        executions.ran("transfers-joined", ref);
        return ref;
    }
}
