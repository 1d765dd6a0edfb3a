package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Methods whose behaviour config changes; all REJECT by annotation. */
@ApplicationScoped
public class Tunable {

    final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    private String run(String method, String id) {
        int n = runs.computeIfAbsent(method + id, k -> new AtomicInteger()).incrementAndGet();
        Orders.sleep(150);
        return method + "-run-" + n;
    }

    @Idempotent(name = "tunable.alpha", lease = "PT20S")
    public String alpha(@IdempotencyKey String id) {
        return run("alpha", id);
    }

    @Idempotent(name = "tunable.beta", lease = "PT20S")
    public String beta(@IdempotencyKey String id) {
        return run("beta", id);
    }

    @Traced
    @Idempotent(name = "tunable.traced")
    public String traced(@IdempotencyKey String id) {
        return run("traced", id);
    }
}
