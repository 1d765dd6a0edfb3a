package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A base class whose public method two beans inherit, each under its own class-level
 * {@code @Idempotent(name = ...)}: {@link AlphaCharges} and {@link BetaCharges}.
 */
public abstract class Charges {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    /** Which bean this is. */
    protected abstract String tag();

    /** Charges once per id, per bean. */
    public String charge(@IdempotencyKey String id) {
        int run = runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        return tag() + "-run-" + run;
    }
}
