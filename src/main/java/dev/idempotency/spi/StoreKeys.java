package dev.idempotency.spi;

/**
 * The configuration keys that the engine and the stores share: which store holds the records, where a
 * store that joins the caller's transaction finds the JTA registry, and the guard's priority that such
 * a store names when it finds no transaction. The keys of one store are
 * its own ({@code idempotency.<store>.*}).
 */
public final class StoreKeys {

    /** Which store holds records: {@code memory}, {@code infinispan}, {@code jpa}, {@code redis}, or a CDI bean name. */
    public static final String STORE = "idempotency.store";

    /** Default of {@link #STORE}. */
    public static final String DEFAULT_STORE = "memory";

    /** JNDI name of the JTA {@code TransactionSynchronizationRegistry}. */
    public static final String TRANSACTION_REGISTRY = "idempotency.transaction-registry";

    /**
     * The guard's CDI interceptor priority: a store that joins callers' transactions names it when a
     * joined call finds no transaction active (the guard ran before {@code @Transactional} began one).
     */
    public static final String INTERCEPTOR_PRIORITY = "idempotency.interceptor.priority";

    /** Default of {@link #TRANSACTION_REGISTRY}. */
    public static final String DEFAULT_TRANSACTION_REGISTRY = "java:comp/TransactionSynchronizationRegistry";

    private StoreKeys() {}

    /** The selected store's name ({@link #STORE}). */
    public static String store(ConfigLookup settings) {
        return settings.text(STORE).orElse(DEFAULT_STORE);
    }

    /** The JNDI name of the JTA registry ({@link #TRANSACTION_REGISTRY}). */
    public static String transactionRegistry(ConfigLookup settings) {
        return settings.text(TRANSACTION_REGISTRY).orElse(DEFAULT_TRANSACTION_REGISTRY);
    }
}
