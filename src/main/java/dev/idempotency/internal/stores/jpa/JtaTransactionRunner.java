package dev.idempotency.internal.stores.jpa;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;

/**
 * Runs the JPA store's {@code separate} work outside the caller's JTA transaction, through {@code
 * @Transactional}, the portable way for a CDI library to suspend a transaction. Internal to the JPA
 * store; public only because interceptors need a proxyable bean.
 */
@ApplicationScoped
public class JtaTransactionRunner {

    /**
     * Runs {@code work} with the caller's transaction (if any) suspended and none begun, so that a
     * connection taken meanwhile is not enlisted and autocommits each statement. Exceptions pass
     * through as they are.
     */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public <T> T outsideTransaction(Supplier<T> work) {
        return work.get();
    }

    /** Runs {@code work} in a new transaction, rolled back or committed as {@code @Transactional} does. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> T inNewTransaction(Supplier<T> work) {
        return work.get();
    }
}
