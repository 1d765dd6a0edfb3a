package dev.idempotency.it.jms.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts, per message id, the broker's deliveries and the handler's runs (committed or not). */
@ApplicationScoped
public class Ledger {

    private final ConcurrentHashMap<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    /** A delivery reached the message-driven bean. */
    public void delivered(String id) {
        deliveries.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    /** The handler runs; returns the run's number (1 for the first). */
    public int ran(String id) {
        return runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    /** Deliveries of a message so far. */
    public int deliveries(String id) {
        AtomicInteger n = deliveries.get(id);
        return n == null ? 0 : n.get();
    }

    /** Runs of the handler for a message so far. */
    public int runs(String id) {
        AtomicInteger n = runs.get(id);
        return n == null ? 0 : n.get();
    }
}
