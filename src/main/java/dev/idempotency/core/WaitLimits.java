package dev.idempotency.core;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many calls may wait ({@code onInProgress = WAIT}) for a running call at once: per key and in
 * total on this node. Each waiter holds its thread (and in the joined mode a transaction and a
 * connection) for up to the lease, so a burst of duplicates of one slow key could otherwise take every
 * request thread; beyond a bound a duplicate is refused at once as in progress (409), as with {@code
 * REJECT}.
 *
 * @param maxTotal waiters on this node at most ({@value GlobalSettings#WAIT_MAX_TOTAL})
 * @param maxPerKey waiters for one key at most ({@value GlobalSettings#WAIT_MAX_PER_KEY})
 */
public record WaitLimits(int maxTotal, int maxPerKey) {

    /** The defaults: 64 in total, 16 per key. */
    public static final WaitLimits DEFAULT = new WaitLimits(64, 16);

    /** Checks the bounds. */
    public WaitLimits {
        if (maxTotal < 1 || maxPerKey < 1) {
            throw new IdempotencyConfigurationException("Config keys '" + GlobalSettings.WAIT_MAX_TOTAL + "' and '"
                    + GlobalSettings.WAIT_MAX_PER_KEY + "' are " + maxTotal + " and " + maxPerKey
                    + "; set each to a positive number of waiting calls, such as " + DEFAULT.maxTotal() + " and "
                    + DEFAULT.maxPerKey() + ".");
        }
    }

    /** The waiters of one engine, counted against these limits. */
    Waiters waiters() {
        return new Waiters(this);
    }

    /** The calls waiting now; thread-safe. */
    static final class Waiters {
        private final WaitLimits limits;
        private final AtomicInteger total = new AtomicInteger();
        private final ConcurrentHashMap<String, AtomicInteger> perKey = new ConcurrentHashMap<>();

        private Waiters(WaitLimits limits) {
            this.limits = limits;
        }

        /** Counts a call in as waiting for {@code key}; false, counting nothing, when a bound is reached. */
        boolean enter(String key) {
            if (total.incrementAndGet() > limits.maxTotal()) {
                total.decrementAndGet();
                return false;
            }
            boolean[] admitted = {false};
            perKey.compute(key, (k, n) -> {
                AtomicInteger count = n == null ? new AtomicInteger() : n;
                if (count.get() < limits.maxPerKey()) {
                    count.incrementAndGet();
                    admitted[0] = true;
                }
                return count;
            });
            if (!admitted[0]) {
                total.decrementAndGet();
            }
            return admitted[0];
        }

        /** Counts a waiting call out; the key's entry goes with its last waiter. */
        void leave(String key) {
            perKey.computeIfPresent(key, (k, n) -> n.decrementAndGet() == 0 ? null : n);
            total.decrementAndGet();
        }

        /** The calls waiting now, for tests and metrics. */
        int waiting() {
            return total.get();
        }
    }
}
