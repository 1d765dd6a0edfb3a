package demo;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many times each guarded body ran, by kind ("orders", "charges", "refunds") and reference. */
@ApplicationScoped
public class Executions {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    /** Counts one run of {@code kind} for {@code ref}. */
    public void ran(String kind, String ref) {
        counts.computeIfAbsent(kind + "/" + ref, k -> new AtomicInteger()).incrementAndGet();
    }

    /** The runs of {@code kind} for {@code ref} so far. */
    public int of(String kind, String ref) {
        AtomicInteger n = counts.get(kind + "/" + ref);
        return n == null ? 0 : n.get();
    }
}
