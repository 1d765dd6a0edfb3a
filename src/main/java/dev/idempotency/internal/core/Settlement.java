package dev.idempotency.internal.core;

/**
 * When an owned call's outcome becomes final. Without a transaction it is final when the method
 * returns. Inside a transaction it is final only when the transaction commits: storing it earlier
 * would make every retry replay a success whose business changes were rolled back.
 */
@FunctionalInterface
public interface Settlement {

    /** Settles at once: for calls outside any transaction. */
    Settlement IMMEDIATE = (onCommit, onRollback) -> onCommit.run();

    /**
     * Runs {@code onCommit} once the call's work is durable, or {@code onRollback} once it has been
     * undone; exactly one of them, exactly once.
     */
    void afterWork(Runnable onCommit, Runnable onRollback);

    /**
     * Reports the transaction the current thread runs in to a guarded call's {@code work}, just before
     * the method body runs: none here; a transactional settlement reports its transaction and its end.
     */
    default void watch(WorkTransactions work) {
        work.ranWithoutTransaction();
    }
}
