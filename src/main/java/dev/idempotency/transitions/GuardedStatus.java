package dev.idempotency.transitions;

import java.util.Set;

/**
 * An enum of statuses that declares, for each status, the statuses it may be reached from; {@link
 * StatusTransitions#advance} moves an entity only along these edges.
 *
 * <pre>{@code
 * enum OrderStatus implements GuardedStatus<OrderStatus> {
 *     NEW, PAID, SHIPPED, CANCELLED;
 *
 *     public Set<OrderStatus> allowedFrom() {
 *         return switch (this) {
 *             case NEW -> Set.of();
 *             case PAID -> Set.of(NEW);
 *             case SHIPPED -> Set.of(PAID);
 *             case CANCELLED -> Set.of(NEW, PAID);
 *         };
 *     }
 * }
 * }</pre>
 *
 * @param <S> the enum itself
 */
public interface GuardedStatus<S extends Enum<S> & GuardedStatus<S>> {

    /**
     * The statuses this one may be reached from; empty for a status no transition leads to (an initial
     * status). A status listed here for itself makes the transition repeatable; by default it is not,
     * so a repeat reports that this call did not make the transition.
     */
    Set<S> allowedFrom();
}
