package dev.idempotency.internal.jaxrs;

import jakarta.ws.rs.Priorities;

/**
 * The {@code @Priority} of each JAX-RS feature this jar lists in {@code META-INF/services}: one value
 * per feature, never shared.
 *
 * <p>Why they must differ: RESTEasy (the JAX-RS of WildFly and Open Liberty) reads those service
 * files into a set ordered by {@code @Priority} alone, so of several services with the same priority
 * (or none, which counts as {@code USER}) only the first is registered. With equal priorities the
 * second dynamic feature (one-time tokens) and the second feature (the exception mapper) were
 * silently dropped there. The priority of a feature class orders nothing else: the filters and the
 * mapper the features register keep the priorities they are registered with. Public for the
 * one-time token features ({@code dev.idempotency.internal.tokens.http}).
 */
public final class ServicePriorities {

    /** {@link IdempotencyFeature}. */
    public static final int IDEMPOTENCY_FEATURE = Priorities.USER + 4101;

    /** {@link dev.idempotency.internal.tokens.http.OneTimeTokenFeature}. */
    public static final int ONE_TIME_TOKEN_FEATURE = Priorities.USER + 4102;

    /** {@link dev.idempotency.internal.tokens.http.OneTimeTokenEndpointFeature}. */
    public static final int ONE_TIME_TOKEN_ENDPOINT_FEATURE = Priorities.USER + 4103;

    /** {@link IdempotencyExceptionFeature}. */
    public static final int EXCEPTION_FEATURE = Priorities.USER + 4104;

    private ServicePriorities() {}
}
