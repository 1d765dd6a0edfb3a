package dev.idempotency.core;

/** The guarded call itself: what runs when the key is claimed. */
@FunctionalInterface
public interface Invocation {

    /** Runs the operation and returns its result. */
    Object proceed() throws Exception;
}
