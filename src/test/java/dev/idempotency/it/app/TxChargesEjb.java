package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * One guarded EJB method per {@code @TransactionAttribute}; the container's transaction begins
 * before every interceptor. Each writes one effect row through the JTA datasource.
 */
@Stateless
public class TxChargesEjb {

    @Inject
    Effects effects;

    @Idempotent(name = "it.ejb.required")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public int required(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.ejb.requires-new")
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int requiresNew(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.ejb.not-supported")
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public int notSupported(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.ejb.mandatory")
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public int mandatory(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.ejb.supports")
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public int supports(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.ejb.never")
    @TransactionAttribute(TransactionAttributeType.NEVER)
    public int never(@IdempotencyKey String key) {
        return effects.write(key);
    }

    /** Throws {@link NonFatal} (an application exception without rollback) on its first run. */
    @Idempotent(name = "it.ejb.required-nonfatal")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public int requiredNonFatal(@IdempotencyKey String key) {
        return TxCharges.failFirst(effects.write(key), key);
    }

    /** The same in a transaction of its own. */
    @Idempotent(name = "it.ejb.requires-new-nonfatal")
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int requiresNewNonFatal(@IdempotencyKey String key) {
        return TxCharges.failFirst(effects.write(key), key);
    }

    /** Throws a system exception on its first run: the container rolls its transaction back. */
    @Idempotent(name = "it.ejb.requires-new-fatal")
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int requiresNewFatal(@IdempotencyKey String key) {
        int run = effects.write(key);
        if (run == 1) {
            throw new IllegalStateException("first run of " + key + " failed");
        }
        return run;
    }
}
