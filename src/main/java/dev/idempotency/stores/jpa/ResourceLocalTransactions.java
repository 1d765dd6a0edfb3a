package dev.idempotency.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.util.function.Function;

/** Resource-local transactions, for Java SE (and the store's own tests): one entity manager per call. */
final class ResourceLocalTransactions implements Transactions {

    private final EntityManagerFactory emf;

    ResourceLocalTransactions(EntityManagerFactory emf) {
        this.emf = emf;
    }

    @Override
    public <T> T inNew(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            EntityTransaction tx = em.getTransaction();
            tx.begin();
            try {
                T result = work.apply(em);
                tx.commit();
                return result;
            } catch (RuntimeException | Error e) {
                if (tx.isActive()) {
                    try {
                        tx.rollback();
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
        } finally {
            em.close();
        }
    }

    @Override
    public <T> T inCaller(Function<EntityManager, T> work, String operation) {
        throw new IdempotencyConfigurationException("Operation '" + operation
                + "' is configured for the joined transaction mode, but this JPA store runs on resource-local"
                + " transactions, which it cannot share with the caller. Set '" + JpaStoreSettings.TRANSACTION
                + "' to separate, or run the store in a Jakarta EE container (JTA).");
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
}
