package dev.idempotency.it.http.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts real executions per name, so tests can tell a run from a replay. */
@ApplicationScoped
public class Counter {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    /** Records a run; returns its number (1 for the first). */
    public int ran(String name) {
        return runs.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    /** How many runs there were. */
    public int count(String name) {
        AtomicInteger n = runs.get(name);
        return n == null ? 0 : n.get();
    }
}
