package dev.idempotency.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts how often each guarded method body really ran, per key. */
@ApplicationScoped
public class ExecutionCounter {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    /** Records one execution and returns how many there have been for this key. */
    public int ran(String key) {
        return runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    /** How many times the body ran for this key. */
    public int count(String key) {
        AtomicInteger n = runs.get(key);
        return n == null ? 0 : n.get();
    }
}
