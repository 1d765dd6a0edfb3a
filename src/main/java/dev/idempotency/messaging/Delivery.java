package dev.idempotency.messaging;

/** What {@link MessageDeduplicator#handle} did with one delivery that did not throw. */
public enum Delivery {
    /** The handler ran and succeeded. */
    PROCESSED,
    /** The message was already processed: acknowledged without running the handler. */
    DUPLICATE,
    /** The message had reached its attempt limit: skipped and reported, the handler did not run. */
    SKIPPED_FAILED
}
