package dev.idempotency.internal.stores;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.spi.ConfigLookup;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;

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
     * @param modeKey the config key that selects the mode
     */
    public static IdempotencyConfigurationException noRegistry(String store, String modeKey, String name, Exception e) {
        return new IdempotencyConfigurationException(
                store + "'s joined transaction mode needs the JTA TransactionSynchronizationRegistry, which is not at '"
                        + name + "' (" + e + "). Set '" + GlobalSettings.TRANSACTION_REGISTRY
                        + "' to the JNDI name this server binds it to, or set '" + modeKey + "' to separate.",
                e);
    }

    /**
     * The error for an operation in the joined mode whose store call found no active JTA transaction.
     *
     * @param operation the operation name
     * @param modeKey the config key that selects the mode
     * @param when when the store needed the transaction, e.g. "its call is guarded"
     * @param status the JTA status found
     */
    public static IdempotencyConfigurationException noTransaction(
            String operation, String modeKey, String when, int status) {
        return new IdempotencyConfigurationException("Operation '" + operation + "' uses the joined transaction mode ('"
                + modeKey + "'), but no JTA transaction is active when " + when + " (status " + status
                + "). The CDI interceptor runs at priority " + GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY
                + " unless configured, outside @Transactional (200): guard an EJB with container-managed"
                + " transactions, set '" + GlobalSettings.INTERCEPTOR_PRIORITY
                + "' above 200 (e.g. 1000) so it runs inside @Transactional, call the method from inside a"
                + " transaction, or use the separate mode for this operation.");
    }

    /**
     * Refuses a per-operation mode key ({@code <modeKey>.<operation>}) that names no guarded operation:
     * a misspelt operation name would apply to nothing, and the operation would silently keep the
     * default mode.
     *
     * @param modeKey the store's mode key, e.g. {@code idempotency.jpa.transaction}
     * @param operations the names of every guarded operation of the application
     * @param configNames every config key name that is set
     * @return the operations that a per-operation key names, sorted
     */
    public static Set<String> checkOperationKeys(String modeKey, Set<String> operations, Iterable<String> configNames) {
        String prefix = modeKey + ".";
        Set<String> named = new TreeSet<>();
        for (String key : configNames) {
            if (!key.startsWith(prefix)) {
                continue;
            }
            String operation = key.substring(prefix.length());
            if (!operations.contains(operation)) {
                throw new IdempotencyConfigurationException("Config key '" + key + "' sets the transaction mode of"
                        + " operation '" + operation + "', but no guarded operation of this application has that"
                        + " name, so the key would apply to nothing. The operations are " + new TreeSet<>(operations)
                        + ". Correct the name (in a .properties file an HTTP operation's space is escaped: '"
                        + prefix + "POST\\ /orders'), or remove the key.");
            }
            named.add(operation);
        }
        return named;
    }

    /** Every config key name that is set, from MicroProfile Config; none where it is absent. */
    public static Iterable<String> configNames() {
        try {
            return ConfigProvider.getConfig().getPropertyNames();
        } catch (IllegalStateException | LinkageError e) {
            return Set.of();
        }
    }
}
