package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;

/**
 * A bean-managed-transaction EJB: the method begins and commits its own {@link UserTransaction}, so
 * no transaction is active around it when the guard runs. Its work is durable when it returns.
 */
@Stateless
@TransactionManagement(TransactionManagementType.BEAN)
public class BmtCharges {

    @Inject
    Effects effects;

    @Resource
    UserTransaction tx;

    @Idempotent(name = "it.ejb.bmt")
    public int charge(@IdempotencyKey String key) throws Exception {
        tx.begin();
        try {
            int run = effects.write(key);
            tx.commit();
            return run;
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
    }
}
