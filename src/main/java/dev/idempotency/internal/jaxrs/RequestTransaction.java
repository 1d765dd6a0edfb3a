package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.stores.ContainerResources;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.lang.System.Logger.Level;
import javax.naming.NamingException;

/**
 * The JTA transaction the filter begins around a resource method whose operation uses a store's
 * {@code joined} mode (the JPA store's {@code idempotency.jpa.transaction=joined}): the claim is
 * written in it, the resource method's {@code @Transactional} work (REQUIRED, the default) joins it,
 * and the captured response is stored in it. It commits once the response is captured, before a byte
 * goes to the client, so the business rows and the record commit together or not at all; a response
 * that releases the key, an unmapped exception or a transaction marked for rollback rolls it back,
 * business rows and claim alike, and a retry runs again.
 *
 * <p>Bound to the request's thread, as every JTA transaction is: asynchronous resource methods are
 * refused in the joined mode at deployment ({@link IdempotencyFeature}).
 */
final class RequestTransaction {

    private static final System.Logger LOG = System.getLogger(RequestTransaction.class.getName());

    private final UserTransaction tx;

    private RequestTransaction(UserTransaction tx) {
        this.tx = tx;
    }

    /**
     * The application's {@code UserTransaction}: the CDI bean of that type where there is one
     * (Helidon's JTA, Quarkus), else {@code java:comp/UserTransaction}. It stands for whatever
     * transaction is on the calling thread, so one lookup serves every request of the deployment.
     *
     * @throws IdempotencyConfigurationException the runtime has none
     */
    static UserTransaction lookup(String operation) {
        UserTransaction bean =
                ContainerResources.bean(UserTransaction.class, null).orElse(null);
        if (bean != null) {
            return bean;
        }
        try {
            return (UserTransaction) ContainerResources.jndi("java:comp/UserTransaction");
        } catch (NamingException | ClassCastException e) {
            throw new IdempotencyConfigurationException(
                    "Operation '" + operation + "' uses the joined transaction mode, in which the Idempotency-Key"
                            + " filter begins a JTA transaction, but neither a CDI bean of type UserTransaction nor"
                            + " java:comp/UserTransaction is available to this JAX-RS application (" + e + "); add"
                            + " the runtime's JTA integration, or use the separate mode for this operation.",
                    e);
        }
    }

    /**
     * Begins the transaction of one request.
     *
     * @param tx the deployment's {@link #lookup UserTransaction}
     * @throws IdempotencyConfigurationException a transaction is already active on the request's thread
     * @throws IdempotencyStoreUnavailableException the transaction manager refused to begin one
     */
    static RequestTransaction begin(String operation, UserTransaction tx) {
        try {
            if (tx.getStatus() != Status.STATUS_NO_TRANSACTION) {
                throw new IdempotencyConfigurationException("Operation '" + operation + "' uses the joined"
                        + " transaction mode, but a JTA transaction is already active on the request's thread"
                        + " before the Idempotency-Key filter (status " + tx.getStatus() + "); the filter must"
                        + " begin the transaction the resource method joins. End that transaction where it begins.");
            }
            tx.begin();
        } catch (SystemException | jakarta.transaction.NotSupportedException e) {
            throw new IdempotencyStoreUnavailableException(
                    operation, null, "The JTA transaction of operation '" + operation + "' could not begin: " + e, e);
        }
        return new RequestTransaction(tx);
    }

    /** Whether the work in it was marked for rollback (e.g. by {@code @Transactional} on an exception). */
    boolean rollbackOnly() {
        try {
            return tx.getStatus() == Status.STATUS_MARKED_ROLLBACK;
        } catch (SystemException e) {
            return true;
        }
    }

    /**
     * Commits the business work and the record together.
     *
     * @throws IllegalStateException the commit failed: nothing was committed (the client must not get
     *     the captured response as a success)
     */
    void commit(String operation) {
        try {
            tx.commit();
        } catch (Exception e) {
            rollbackQuietly();
            throw new IllegalStateException(
                    "The transaction of operation '" + operation + "' did not commit, so neither its work nor its"
                            + " idempotency record was stored and a retry runs again: " + e,
                    e);
        }
    }

    /** Rolls the business work and the claim back; never throws (the transaction may be gone already). */
    void rollback() {
        rollbackQuietly();
    }

    private void rollbackQuietly() {
        try {
            int status = tx.getStatus();
            if (status != Status.STATUS_NO_TRANSACTION
                    && status != Status.STATUS_COMMITTED
                    && status != Status.STATUS_ROLLEDBACK) {
                tx.rollback();
            }
        } catch (Exception e) {
            // The container may have ended it at the end of the request already; nothing is committed.
            LOG.log(Level.DEBUG, "rollback of the request's transaction: {0}", e.toString());
        }
    }
}
