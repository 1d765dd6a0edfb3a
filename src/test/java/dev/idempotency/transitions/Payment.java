package dev.idempotency.transitions;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/** A test entity with a guarded status and an optimistic-lock version. */
@Entity
@Table(name = "toolkit_transition_payment")
public class Payment {

    @Id
    public long id;

    @Enumerated(EnumType.STRING)
    public PaymentStatus status;

    @Version
    public int version;

    /** For JPA. */
    public Payment() {}

    Payment(long id, PaymentStatus status) {
        this.id = id;
        this.status = status;
    }
}
