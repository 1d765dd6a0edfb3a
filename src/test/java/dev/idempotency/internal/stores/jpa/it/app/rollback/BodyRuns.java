package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How often a guarded body ran per order, in memory: a run whose transaction rolled back leaves no
 * row, so only this shows that a retry ran the body again.
 */
@ApplicationScoped
public class BodyRuns {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    void ran(String orderId) {
        runs.computeIfAbsent(orderId, k -> new AtomicInteger()).incrementAndGet();
    }

    /** The runs of an order's body. */
    public int of(String orderId) {
        AtomicInteger n = runs.get(orderId);
        return n == null ? 0 : n.get();
    }
}
