package dev.idempotency.internal.stores.jpa.it.app.rollback;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A joined {@code @Stateless} EJB (container-managed, REQUIRED): its transaction begins before the guard. */
@Stateless
public class RollbackOrdersEjb {

    /** The operation name. */
    public static final String OPERATION = "jpa-it.rollback.ejb";

    @Inject
    RollbackWork work;

    /** The shared work, guarded in the joined mode. */
    @Idempotent(name = OPERATION, transaction = Participation.JOINED, lease = "PT30S")
    public String place(@IdempotencyKey String orderId, RollbackWork.Ending ending) {
        return work.run(orderId, ending);
    }
}
