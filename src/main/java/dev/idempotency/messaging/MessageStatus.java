package dev.idempotency.messaging;

import java.util.Objects;

/**
 * What operations can read back about one message of one consumer.
 *
 * @param consumer the consumer name
 * @param messageId the message id
 * @param state where it stands
 * @param attempts how many attempts ran (successful or not)
 * @param lastError the last failed attempt's exception ({@code class: message}, shortened), or
 *     {@code null} when none failed
 */
public record MessageStatus(String consumer, String messageId, MessageState state, int attempts, String lastError) {

    /** Checks the fields. */
    public MessageStatus {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(state, "state");
    }
}
