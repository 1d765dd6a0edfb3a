/**
 * API: message-consumer deduplication with an attempt limit, on the configured store. {@link
 * dev.idempotency.messaging.IdempotentConsumer} and {@link dev.idempotency.messaging.MessageId} mark a
 * handler; {@link dev.idempotency.messaging.MessageDeduplicator} is the programmatic form; {@link
 * dev.idempotency.messaging.FailedMessage} is the event of a message that reached its limit. {@link
 * dev.idempotency.messaging.MessageSettings} is internal.
 */
package dev.idempotency.messaging;
