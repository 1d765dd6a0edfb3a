package dev.idempotency;

/**
 * Whether a guarded operation's record is written in the caller's own transaction ({@link
 * Idempotent#transaction()}).
 */
public enum Participation {

    /**
     * The record is written outside the caller's transaction (the default, on every store). A call
     * inside a transaction has its outcome stored after the commit and its key released after a
     * rollback.
     */
    SEPARATE,

    /**
     * The record is written in the caller's JTA transaction, so that it commits or rolls back with the
     * caller's business data: "ran" and "recorded" cannot disagree. Needs a store that can join (the
     * JPA store, the Infinispan cluster) and a JTA transaction active when the guard runs; a store that
     * cannot fails the deployment.
     */
    JOINED
}
