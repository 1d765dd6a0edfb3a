package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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

    /**
     * The calls waiting now, per key, and the signal that wakes them: a call of this node that settles
     * a key ({@link #settled}) wakes that key's waiters at once, so they need not poll the store to
     * learn it. Thread-safe.
     */
    static final class Waiters {
        private final WaitLimits limits;
        private final AtomicInteger total = new AtomicInteger();
        private final ConcurrentHashMap<String, Slot> perKey = new ConcurrentHashMap<>();

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
            perKey.compute(key, (k, slot) -> {
                Slot s = slot == null ? new Slot() : slot;
                if (s.count < limits.maxPerKey()) {
                    s.count++;
                    admitted[0] = true;
                }
                return s;
            });
            if (!admitted[0]) {
                total.decrementAndGet();
            }
            return admitted[0];
        }

        /** Counts a waiting call out; the key's entry goes with its last waiter. */
        void leave(String key) {
            perKey.computeIfPresent(key, (k, s) -> --s.count == 0 ? null : s);
            total.decrementAndGet();
        }

        /**
         * How often the key was settled so far, read before a waiter looks at the store: {@link #await}
         * with this value returns at once if the key was settled after the read.
         */
        long settledCount(String key) {
            Slot s = perKey.get(key);
            return s == null ? 0 : s.settled.get();
        }

        /**
         * Waits until {@code key} is settled on this node after {@code seen} ({@link #settledCount}), or
         * {@code nanos} passed.
         *
         * @return whether it was settled
         */
        boolean await(String key, long seen, long nanos) throws InterruptedException {
            Slot s = perKey.get(key);
            if (s == null) {
                TimeUnit.NANOSECONDS.sleep(nanos);
                return false;
            }
            s.lock.lock();
            try {
                long left = nanos;
                while (s.settled.get() == seen && left > 0) {
                    left = s.changed.awaitNanos(left);
                }
                return s.settled.get() != seen;
            } finally {
                s.lock.unlock();
            }
        }

        /** A call of this node completed or released {@code key}: its waiters look at the store now. */
        void settled(String key) {
            Slot s = perKey.get(key);
            if (s == null) {
                return;
            }
            s.lock.lock();
            try {
                s.settled.incrementAndGet();
                s.changed.signalAll();
            } finally {
                s.lock.unlock();
            }
        }

        /** The calls waiting now, for tests and metrics. */
        int waiting() {
            return total.get();
        }

        /** The waiters of one key: their count (changed under the map's lock) and their signal. */
        private static final class Slot {
            int count;
            final AtomicLong settled = new AtomicLong();
            final ReentrantLock lock = new ReentrantLock();
            final Condition changed = lock.newCondition();
        }
    }
}
