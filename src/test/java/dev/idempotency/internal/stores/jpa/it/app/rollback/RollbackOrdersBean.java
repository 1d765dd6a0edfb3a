package dev.idempotency.internal.stores.jpa.it.app.rollback;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A joined {@code @Transactional} CDI bean. MANDATORY, so that at the default interceptor priority
 * (the guard before {@code @Transactional}) every call brings its caller's transaction.
 */
@ApplicationScoped
public class RollbackOrdersBean {

    /** The operation name. */
    public static final String OPERATION = "jpa-it.rollback.cdi";

    @Inject
    RollbackWork work;

    /** The shared work, guarded in the joined mode. */
    @Idempotent(name = OPERATION, transaction = Participation.JOINED, lease = "PT30S")
    @Transactional(Transactional.TxType.MANDATORY)
    public String place(@IdempotencyKey String orderId, RollbackWork.Ending ending) {
        return work.run(orderId, ending);
    }
}
