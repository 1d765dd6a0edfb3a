package dev.idempotency.internal.stores;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.StoreKeys;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.NamingException;

/**
 * What the stores that offer the joined transaction mode (JPA, Infinispan cluster) share: where the
 * JTA transaction registry is, and the error for a joined operation whose call runs outside a
 * transaction.
 */
public final class JoinedMode {

    private JoinedMode() {}

    /**
     * The JNDI name of the JTA {@code TransactionSynchronizationRegistry}: {@link
     * StoreKeys#TRANSACTION_REGISTRY}, the key the guard's own settlement reads too.
     */
    public static String registryName(ConfigLookup config) {
        return StoreKeys.transactionRegistry(config);
    }

    /**
     * The error for a joined operation on a server where the registry is not at {@code name}.
     *
     * @param store the store, e.g. "The JPA store"
     */
    public static IdempotencyConfigurationException noRegistry(String store, String name, Exception e) {
        return new IdempotencyConfigurationException(
                store + "'s joined transaction mode needs the JTA TransactionSynchronizationRegistry, which is not at '"
                        + name + "' (" + e + "). Set '" + StoreKeys.TRANSACTION_REGISTRY
                        + "' to the JNDI name this server binds it to, or set the operations' transaction to"
                        + " separate.",
                e);
    }

    /**
     * The error for an operation in the joined mode whose store call found no active JTA transaction.
     *
     * @param operation the operation name
     * @param when when the store needed the transaction, e.g. "its call is guarded"
     * @param status the JTA status found
     */
    public static IdempotencyConfigurationException noTransaction(String operation, String when, int status) {
        return new IdempotencyConfigurationException("Operation '" + operation + "' uses the joined transaction mode"
                + " (transaction = JOINED), but no JTA transaction is active when " + when + " (status " + status
                + "). The guard must run inside the transaction: guard an EJB with container-managed"
                + " transactions, set '" + StoreKeys.INTERCEPTOR_PRIORITY + "' above @Transactional's 200 (e.g."
                + " 1000) so the guard runs inside it, call the method from inside a transaction, or use the"
                + " separate mode for this operation.");
    }

    /**
     * Whether a transaction in this JTA status will not commit: marked for rollback (by the work itself,
     * say a failed flush or a nested {@code @Transactional} method that threw) or rolling back. A joined
     * complete or release then writes nothing ({@link dev.idempotency.spi.CallerTransactionRollingBackException}).
     */
    public static boolean rollingBack(int status) {
        return status == Status.STATUS_MARKED_ROLLBACK
                || status == Status.STATUS_ROLLING_BACK
                || status == Status.STATUS_ROLLEDBACK;
    }

    /**
     * The JTA registry, looked up on first use and kept: how both joining stores find the caller's
     * transaction. The CDI bean of its type where there is one (Helidon's JTA, Quarkus), else the one
     * bound at the JNDI name.
     */
    public static final class Registry {
        private final String name;
        private final String store;
        private volatile TransactionSynchronizationRegistry found;

        /**
         * @param name the JNDI name ({@link #registryName})
         * @param store the store, for the error when nothing is bound there, e.g. "The JPA store"
         */
        public Registry(String name, String store) {
            this.name = name;
            this.store = store;
        }

        /**
         * The registry.
         *
         * @throws IdempotencyConfigurationException nothing usable is bound at the name
         */
        public TransactionSynchronizationRegistry get() {
            TransactionSynchronizationRegistry r = found;
            if (r == null) {
                r = ContainerResources.bean(TransactionSynchronizationRegistry.class, null)
                        .orElse(null);
                if (r == null) {
                    try {
                        r = (TransactionSynchronizationRegistry) ContainerResources.jndi(name);
                    } catch (NamingException | ClassCastException e) {
                        throw noRegistry(store, name, e);
                    }
                }
                found = r;
            }
            return r;
        }
    }
}
