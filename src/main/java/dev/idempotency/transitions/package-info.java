/**
 * API: guarded status transitions on JPA entities. A status enum implements {@link
 * dev.idempotency.transitions.GuardedStatus}; {@link dev.idempotency.transitions.StatusTransitions}
 * advances an entity only from an allowed status, in one conditional update.
 */
package dev.idempotency.transitions;
