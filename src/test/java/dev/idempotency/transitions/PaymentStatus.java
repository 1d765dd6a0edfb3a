package dev.idempotency.transitions;

import java.util.Set;

/** The statuses of {@link Payment}, with their pre-states. */
public enum PaymentStatus implements GuardedStatus<PaymentStatus> {
    NEW,
    PAID,
    SHIPPED,
    CANCELLED;

    @Override
    public Set<PaymentStatus> allowedFrom() {
        return switch (this) {
            case NEW -> Set.of();
            case PAID -> Set.of(NEW);
            case SHIPPED -> Set.of(PAID);
            case CANCELLED -> Set.of(NEW, PAID);
        };
    }
}
