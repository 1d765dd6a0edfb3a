package dev.idempotency;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a value that is part of an {@link Idempotent} method's key.
 *
 * <p>Put it on method parameters, or on fields or record components of a parameter's type (the
 * parameter object itself is then not annotated). The key is built from all marked values, sorted by
 * {@link #order()}; equal orders keep parameter order, then declaration order. Values are converted
 * to text with {@code String.valueOf} for strings, numbers, booleans, characters, enums and UUIDs,
 * and as canonical JSON (JSON-B) otherwise. A {@code null} or blank value makes the call unkeyed (see
 * {@link Idempotent#required()}).
 *
 * <pre>{@code
 * @Idempotent(name = "repayments.settle", required = true)
 * public Receipt settle(@IdempotencyKey(order = 1) String serialNo,
 *                       @IdempotencyKey(order = 2) Source source, Money amount) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface IdempotencyKey {

    /** Position of this value in the key; lower comes first. Any int. Default: {@code 0}. */
    int order() default 0;
}
