package dev.idempotency.messaging;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of an {@link IdempotentConsumer} method that holds the message id (its {@code
 * toString()}); exactly one parameter carries it. A {@code null} or blank id fails the delivery with
 * {@link dev.idempotency.IdempotencyKeyMissingException}: without an id it cannot be deduplicated.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface MessageId {}
