package dev.idempotency.messaging;

/** Where a message stands for one consumer, as {@link MessageDeduplicator#status} reads it back. */
public enum MessageState {
    /** No delivery of this message was seen (or its records outlived their retention). */
    UNSEEN,
    /** A delivery is being processed now. */
    PROCESSING,
    /** At least one attempt failed and the attempt limit is not reached: the next delivery runs again. */
    AWAITING_RETRY,
    /** Processed successfully; further deliveries are acknowledged without running. */
    SUCCEEDED,
    /** The attempt limit was reached; further deliveries are skipped and reported, not processed. */
    FAILED
}
