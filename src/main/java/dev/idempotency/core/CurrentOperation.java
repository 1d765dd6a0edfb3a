package dev.idempotency.core;

import java.util.function.Supplier;

/**
 * The name of the operation whose record the current thread is claiming, completing or releasing,
 * while {@link IdempotencyEngine} is inside a store call. The store SPI carries only the namespaced
 * key (a hash); a store that is configured per operation (the JPA store's transaction mode) reads the
 * operation here instead.
 */
public final class CurrentOperation {

    private static final ThreadLocal<String> NAME = new ThreadLocal<>();

    private CurrentOperation() {}

    /**
     * The operation name of the store call running on this thread.
     *
     * @return the name, or {@code null} outside a store call made by the engine
     */
    public static String name() {
        return NAME.get();
    }

    /**
     * Runs a store call with {@code operation} as the current operation, restoring the previous one
     * after (guarded calls may nest).
     */
    static <T> T call(String operation, Supplier<T> storeCall) {
        String previous = NAME.get();
        NAME.set(operation);
        try {
            return storeCall.get();
        } finally {
            // set(null) rather than remove(): remove() expunges stale entries of the thread's map,
            // which showed in the profile of every guarded call. A null entry costs one slot per thread.
            NAME.set(previous);
        }
    }
}
