package dev.idempotency.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.GlobalSettings;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.function.Function;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * JTA transactions in a container. The store's entity managers are application-managed and created
 * inside the transaction they work in, so that they join it; each is flushed and closed before the
 * call returns.
 */
final class JtaTransactions implements Transactions {

    private final EntityManagerFactory emf;
    private final JtaTransactionRunner runner;
    private volatile TransactionSynchronizationRegistry registry;

    JtaTransactions(EntityManagerFactory emf, JtaTransactionRunner runner) {
        this.emf = emf;
        this.runner = runner;
    }

    @Override
    public <T> T inNew(Function<EntityManager, T> work) {
        return runner.inNewTransaction(() -> inCurrent(work));
    }

    @Override
    public <T> T inCaller(Function<EntityManager, T> work, String operation) {
        int status = registry().getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new IdempotencyConfigurationException("Operation '" + operation
                    + "' uses the joined transaction mode ('" + JpaStoreSettings.TRANSACTION
                    + "'), but no JTA transaction is active when its idempotency record is written (status "
                    + status + "). The CDI interceptor runs at priority "
                    + GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY
                    + ", outside @Transactional (200): guard an EJB with container-managed transactions, set '"
                    + GlobalSettings.INTERCEPTOR_PRIORITY
                    + "' above 200 (e.g. 1000) so it runs inside @Transactional, call the method from inside a"
                    + " transaction, or use the separate mode for this operation.");
        }
        return inCurrent(work);
    }

    @Override
    public <T> T read(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            return work.apply(em);
        } finally {
            em.close();
        }
    }

    private <T> T inCurrent(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            em.joinTransaction();
            T result = work.apply(em);
            em.flush();
            return result;
        } finally {
            em.close();
        }
    }

    private TransactionSynchronizationRegistry registry() {
        TransactionSynchronizationRegistry r = registry;
        if (r == null) {
            try {
                r = (TransactionSynchronizationRegistry)
                        new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
            } catch (NamingException e) {
                throw new IdempotencyConfigurationException(
                        "The JPA store's joined mode needs java:comp/TransactionSynchronizationRegistry, which"
                                + " this server does not provide; set '" + JpaStoreSettings.TRANSACTION
                                + "' to separate.",
                        e);
            }
            registry = r;
        }
        return r;
    }
}
