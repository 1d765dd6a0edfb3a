package dev.idempotency.internal.stores;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets one event through per period: the first event, and then the first of each later period. Of
 * concurrent events, exactly one passes. Used for WARNINGs that would flood the log in a burst (the one
 * that passes logs at WARNING, the others at DEBUG), and for work that must not be repeated faster.
 */
public final class Throttle {

    private final long periodNanos;

    /** When the next event may pass (nanoTime). */
    private final AtomicLong next;

    /** @param period the shortest time between two events that pass */
    public Throttle(Duration period) {
        this.periodNanos = period.toNanos();
        this.next = new AtomicLong(System.nanoTime());
    }

    /** Whether this event passes; each one that does closes the throttle for one period. */
    public boolean pass() {
        long now = System.nanoTime();
        long at = next.get();
        return now - at >= 0 && next.compareAndSet(at, now + periodNanos);
    }

    /** The level to log this event at: WARNING when it {@linkplain #pass() passes}, else DEBUG. */
    public Level warningLevel() {
        return pass() ? Level.WARNING : Level.DEBUG;
    }
}
