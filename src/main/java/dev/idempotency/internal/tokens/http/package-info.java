/**
 * Internal, no compatibility promise: the HTTP glue of one-time tokens. A dynamic feature binds the
 * token filter to resource methods marked {@link dev.idempotency.tokens.RequiresOneTimeToken}; the
 * filter consumes the token before the method runs and answers a refusal with problem+json; the
 * optional endpoint hands tokens out. Both are listed in {@code META-INF/services}. The HTTP behaviour
 * and the {@code idempotency.tokens.*} keys are the contract (docs/toolkit.md), not these classes.
 */
package dev.idempotency.internal.tokens.http;
