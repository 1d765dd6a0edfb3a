package dev.idempotency.internal.stores;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.spi.ConfigLookup;

/**
 * What the stores that offer the joined transaction mode (JPA, Infinispan cluster) share: where the
 * JTA transaction registry is, and the error for a joined operation whose call runs outside a
 * transaction.
 */
public final class JoinedMode {

    private JoinedMode() {}

    /**
     * The JNDI name of the JTA {@code TransactionSynchronizationRegistry}: {@code
     * idempotency.transaction-registry}, the key the guard's own settlement reads too.
     */
    public static String registryName(ConfigLookup config) {
        return new GlobalSettings(config).transactionRegistry();
    }

    /**
     * The error for a joined operation on a server where the registry is not at {@code name}.
     *
     * @param store the store, e.g. "The JPA store"
     */
    public static IdempotencyConfigurationException noRegistry(String store, String name, Exception e) {
        return new IdempotencyConfigurationException(
                store + "'s joined transaction mode needs the JTA TransactionSynchronizationRegistry, which is not at '"
                        + name + "' (" + e + "). Set '" + GlobalSettings.TRANSACTION_REGISTRY
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
                + "). The CDI interceptor runs at priority " + GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY
                + " unless configured, outside @Transactional (200): guard an EJB with container-managed"
                + " transactions, set '" + GlobalSettings.INTERCEPTOR_PRIORITY
                + "' above 200 (e.g. 1000) so it runs inside @Transactional, call the method from inside a"
                + " transaction, or use the separate mode for this operation.");
    }
}
