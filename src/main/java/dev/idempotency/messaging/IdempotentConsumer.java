package dev.idempotency.messaging;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Deduplicates the deliveries of a message to the annotated handler method (a CDI bean's or a session
 * bean's, including an MDB's listener that delegates to one), by the {@link MessageId} parameter and
 * the consumer's {@link #name()}. The method must return {@code void}: a skipped delivery has no
 * result.
 *
 * <p>A delivery is decided by the first rule that applies (see {@link MessageDeduplicator}):
 *
 * <ol>
 *   <li>The message was processed: the call returns without running the method.
 *   <li>The message reached its attempt limit: the call returns without running the method, after a
 *       WARNING log line and a {@link FailedMessage} CDI event.
 *   <li>Another delivery of it is processing: the call fails with {@link
 *       dev.idempotency.IdempotencyInProgressException}, so that the broker redelivers it later.
 *   <li>Otherwise the method runs as the next attempt; its exception is rethrown after the attempt was
 *       counted, and the attempt that reaches {@link #maxAttempts()} marks the message failed.
 * </ol>
 *
 * <p>Inside a JTA transaction a success counts only when the transaction commits.
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface IdempotentConsumer {

    /**
     * The consumer's stable name: deliveries of one message to two consumers are deduplicated
     * separately. Not blank. Required.
     */
    @Nonbinding
    String name();

    /**
     * Attempts before the message is marked failed, 1 to 100. Default: 0, meaning {@code
     * idempotency.messages.max-attempts} (itself 3 by default).
     */
    @Nonbinding
    int maxAttempts() default 0;
}
