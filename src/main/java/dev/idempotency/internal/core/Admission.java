package dev.idempotency.internal.core;

/** What {@link IdempotencyEngine#begin} decided for a call. */
public sealed interface Admission {

    /** The namespaced key the decision is about. */
    RecordKey key();

    /**
     * This call owns the key: run the operation, then {@link IdempotencyEngine#complete} or {@link
     * IdempotencyEngine#release} exactly once.
     *
     * @param key the namespaced key
     * @param owner this call's owner token
     * @param policy the operation's policy
     * @param tookOver whether the claim took over an IN_PROGRESS record whose lease had ended
     * @param events where the call's completion or release is reported
     */
    record Owned(RecordKey key, String owner, OperationPolicy policy, boolean tookOver, OperationEvents events)
            implements Admission {

        /** Checks the fields. */
        public Owned {
            java.util.Objects.requireNonNull(events, "events");
        }

        /** An owned claim whose completion and release are not reported. */
        public Owned(RecordKey key, String owner, OperationPolicy policy, boolean tookOver) {
            this(key, owner, policy, tookOver, OperationEvents.NONE);
        }
    }

    /**
     * The operation completed before: hand back the stored outcome, do not run it.
     *
     * @param key the namespaced key
     * @param outcome the stored outcome bytes
     */
    record Replay(RecordKey key, byte[] outcome) implements Admission {}
}
