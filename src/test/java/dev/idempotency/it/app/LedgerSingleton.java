package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;

/**
 * A @Singleton EJB with bean-managed concurrency, so concurrent callers really overlap inside it and
 * only the idempotency guard stands between them and a second posting.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LedgerSingleton {

    @Inject
    ExecutionCounter counter;

    /** Posts once per entry id. */
    @Idempotent(name = "it.ledger.post")
    public Receipt post(@IdempotencyKey String entryId, long cents) {
        int run = counter.ran("singleton:" + entryId);
        PaymentEjb.sleep(300);
        return new Receipt(entryId, run, cents);
    }
}
