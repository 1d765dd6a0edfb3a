package dev.idempotency.bench;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** The same trivial body, guarded and unguarded, so that the difference is the guard alone. */
@ApplicationScoped
public class BenchService {

    /** Unguarded: the floor (a CDI client proxy call). */
    public String plain(String orderId, long amountCents) {
        return orderId + ":" + amountCents;
    }

    /** Guarded by the interceptor on the memory store. */
    @Idempotent(name = "bench.guarded", ttl = "PT0.001S")
    public String guarded(@IdempotencyKey String orderId, long amountCents) {
        return orderId + ":" + amountCents;
    }

    /**
     * Guarded with the default retention (24 hours), for replays: with the 1 ms ttl above, a replayed
     * key would expire between calls and most "replays" would claim and run again.
     */
    @Idempotent(name = "bench.kept")
    public String kept(@IdempotencyKey String orderId, long amountCents) {
        return orderId + ":" + amountCents;
    }
}
