/**
 * Internal, no compatibility promise: the HTTP entry point. The feature binds the {@code
 * Idempotency-Key} filter to guarded resource methods; the filter claims the key, replays or refuses
 * (problem+json), and stores the response. {@link dev.idempotency.internal.jaxrs.Problems} and {@link
 * dev.idempotency.internal.jaxrs.ServicePriorities} are shared with the one-time token glue ({@code
 * dev.idempotency.internal.tokens.http}). The HTTP behaviour and the {@code idempotency.http.*} keys are the
 * contract (docs/http.md), not these classes.
 */
package dev.idempotency.internal.jaxrs;
