package dev.idempotency.stores.jpa;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;

/**
 * Starts the JPA store's own JTA transactions through {@code @Transactional}, the portable way for a
 * CDI library to suspend a caller's transaction. Internal to the JPA store; public only because
 * interceptors need a proxyable bean.
 */
@ApplicationScoped
public class JtaTransactionRunner {

    /**
     * Runs {@code work} in a new transaction, suspending the caller's: commits when it returns, rolls
     * back and rethrows when it throws.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> T inNewTransaction(Supplier<T> work) {
        return work.get();
    }
}
