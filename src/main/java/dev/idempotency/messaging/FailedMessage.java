package dev.idempotency.messaging;

import java.util.Objects;

/**
 * Reported (as a CDI event, and a log line) when a message reaches its attempt limit, and again for
 * every later delivery of it, which is skipped. Observe it to alert, or to move the message to a
 * dead-letter store.
 *
 * @param consumer the consumer name
 * @param messageId the message id
 * @param attempts how many attempts failed
 * @param lastError the last attempt's exception ({@code class: message}, shortened)
 * @param redelivery false when this delivery's failure reached the limit; true when a delivery of an
 *     already failed message was skipped
 */
public record FailedMessage(String consumer, String messageId, int attempts, String lastError, boolean redelivery) {

    /** Checks the fields. */
    public FailedMessage {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(messageId, "messageId");
    }
}
