package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/**
 * One guarded CDI method per {@code @Transactional} type. Each writes one effect row through the JTA
 * datasource, so the row commits or rolls back with the transaction the method's work ran in.
 */
@ApplicationScoped
public class TxCharges {

    @Inject
    Effects effects;

    /** No {@code @Transactional}: the work joins the caller's transaction, if any. */
    @Idempotent(name = "it.tx.none")
    public int none(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.required")
    @Transactional(TxType.REQUIRED)
    public int required(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.requires-new")
    @Transactional(TxType.REQUIRES_NEW)
    public int requiresNew(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.not-supported")
    @Transactional(TxType.NOT_SUPPORTED)
    public int notSupported(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.mandatory")
    @Transactional(TxType.MANDATORY)
    public int mandatory(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.supports")
    @Transactional(TxType.SUPPORTS)
    public int supports(@IdempotencyKey String key) {
        return effects.write(key);
    }

    @Idempotent(name = "it.tx.never")
    @Transactional(TxType.NEVER)
    public int never(@IdempotencyKey String key) {
        return effects.write(key);
    }

    /** Throws {@link NonFatal} on its first run, after writing; the transaction still commits. */
    @Idempotent(name = "it.tx.required-nonfatal")
    @Transactional(value = TxType.REQUIRED, dontRollbackOn = NonFatal.class)
    public int requiredNonFatal(@IdempotencyKey String key) {
        return failFirst(effects.write(key), key);
    }

    /** The same in a transaction of its own. */
    @Idempotent(name = "it.tx.requires-new-nonfatal")
    @Transactional(value = TxType.REQUIRES_NEW, dontRollbackOn = NonFatal.class)
    public int requiresNewNonFatal(@IdempotencyKey String key) {
        return failFirst(effects.write(key), key);
    }

    /** Throws an unchecked exception on its first run, which rolls its new transaction back. */
    @Idempotent(name = "it.tx.requires-new-fatal")
    @Transactional(TxType.REQUIRES_NEW)
    public int requiresNewFatal(@IdempotencyKey String key) {
        int run = effects.write(key);
        if (run == 1) {
            throw new IllegalStateException("first run of " + key + " failed");
        }
        return run;
    }

    static int failFirst(int run, String key) {
        if (run == 1) {
            throw new NonFatal("first run of " + key + " failed, its work committed");
        }
        return run;
    }
}
