package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** A bean that only global config keys reach. */
@ApplicationScoped
public class Untuned {

    final AtomicInteger runs = new AtomicInteger();

    @Idempotent(name = "untuned.gamma", lease = "PT20S")
    public String gamma(@IdempotencyKey String id) {
        int n = runs.incrementAndGet();
        Orders.sleep(150);
        return "gamma-run-" + n;
    }

    @Idempotent(name = "untuned.optional")
    public String optional(@IdempotencyKey String id) {
        return "optional";
    }
}
