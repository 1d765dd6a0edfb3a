package dev.idempotency.internal.core;

/** The guarded call itself: what runs when the key is claimed. */
@FunctionalInterface
public interface Invocation {

    /**
     * Runs the operation and returns its result.
     *
     * @param work where the code around the method body reports the transactions the work runs in;
     *     {@code null} when the call runs unguarded (no key), so that nothing needs watching
     */
    Object proceed(WorkTransactions work) throws Exception;
}
