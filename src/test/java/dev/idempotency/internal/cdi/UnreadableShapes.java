package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** A bean whose guarded methods cannot be guarded as declared: its deployment fails. */
@ApplicationScoped
public class UnreadableShapes {

    /** A thread is not data: no key or fingerprint can read it. */
    @Idempotent(name = "unreadable.thread")
    public String withThread(@IdempotencyKey String id, Thread worker) {
        return id;
    }

    /** A value class JSON-B writes as {@code {}}: a repeat would get it empty. */
    @Idempotent(name = "unreadable.money")
    public Shapes.Money returnsMoney(@IdempotencyKey String id) {
        return new Shapes.Money(1);
    }
}
