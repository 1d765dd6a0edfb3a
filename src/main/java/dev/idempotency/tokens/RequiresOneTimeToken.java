package dev.idempotency.tokens;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JAX-RS resource method (or every method of a resource class) that runs only with a valid one-time
 * token in the {@code idempotency.tokens.header} header (default {@code Idempotency-Token}). The
 * token is consumed before the method runs; a request whose token is missing, unknown, used, expired
 * or issued to another owner gets a 4xx {@code application/problem+json} that says which, and the
 * method does not run.
 */
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresOneTimeToken {}
