/**
 * API: one-time tokens against duplicate submissions, on the configured store. {@link
 * dev.idempotency.tokens.RequiresOneTimeToken} marks a resource method; {@link
 * dev.idempotency.tokens.OneTimeTokens} issues and consumes tokens in code. {@link
 * dev.idempotency.tokens.TokenSettings} is internal; the HTTP glue is in {@code
 * dev.idempotency.internal.tokens.http}.
 */
package dev.idempotency.tokens;
