package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;

/**
 * Config keys that no longer work, each refused at deployment with the key that replaced it, so that
 * an upgrade never silently drops a setting.
 */
public final class RetiredKeys {

    /** The stores' transaction-mode keys, replaced by the operation setting {@code transaction}. */
    private static final String[] TRANSACTION_MODE = {
        "idempotency.jpa.transaction", "idempotency.infinispan.transaction"
    };

    private RetiredKeys() {}

    /**
     * @param names every config key name that is set
     * @throws IdempotencyConfigurationException naming the first retired key and its replacement
     */
    public static void check(Iterable<String> names) {
        for (String name : names) {
            for (String retired : TRANSACTION_MODE) {
                if (name.equals(retired) || name.startsWith(retired + ".")) {
                    String operation = name.equals(retired) ? null : name.substring(retired.length() + 1);
                    throw new IdempotencyConfigurationException("Config key '" + name + "' is no longer read: the"
                            + " transaction mode is now a setting of each operation, like its ttl and lease. Remove '"
                            + name + "' and set "
                            + (operation == null
                                    ? "'" + PolicyResolver.ANNOTATION + "/transaction=<separate|joined>' for every"
                                            + " operation"
                                    : "'<class>/<method>/" + PolicyResolver.ANNOTATION
                                            + "/transaction=<separate|joined>' for the method of operation '"
                                            + operation + "'")
                            + ", or @Idempotent(transaction = Participation.JOINED) on the method.");
                }
            }
        }
    }
}
