package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many calls may wait ({@code onInProgress = WAIT}) for a running call at once: per key, per caller,
 * per operation, in joined mode, and in total on this node. Each waiter holds its thread (and in the
 * joined mode a transaction and a connection) for up to the lease, so a burst of duplicates of one slow
 * key, or one caller's or one operation's flood, could otherwise take every request thread (or every
 * pooled connection) from everyone else; beyond a bound a duplicate is refused at once as in progress
 * (409), as with {@code REJECT}.
 *
 * <p>A caller is the scope of an HTTP operation's keys (the principal, or the scope header's value):
 * {@link RecordKey#caller()}. Calls without one (an operation that is not scoped, an anonymous principal,
 * a CDI method) are bounded per operation, per key and in total only.
 *
 * @param maxTotal waiters on this node at most ({@value GlobalSettings#WAIT_MAX_TOTAL})
 * @param maxPerKey waiters for one key at most ({@value GlobalSettings#WAIT_MAX_PER_KEY})
 * @param maxPerOperation waiters of one operation at most ({@value GlobalSettings#WAIT_MAX_PER_OPERATION})
 * @param maxPerCaller waiters of one caller of one operation at most ({@value GlobalSettings#WAIT_MAX_PER_CALLER})
 * @param maxJoined waiters of joined operations at most, each holding a pooled connection ({@value
 *     GlobalSettings#WAIT_MAX_JOINED})
 */
public record WaitLimits(int maxTotal, int maxPerKey, int maxPerOperation, int maxPerCaller, int maxJoined) {

    /** The defaults: 64 in total, 16 per key, 32 per operation, 16 per caller, 8 joined. */
    public static final WaitLimits DEFAULT = new WaitLimits(64, 16, 32, 16, 8);

    /** Checks the bounds. */
    public WaitLimits {
        positive(GlobalSettings.WAIT_MAX_TOTAL, maxTotal, 64);
        positive(GlobalSettings.WAIT_MAX_PER_KEY, maxPerKey, 16);
        positive(GlobalSettings.WAIT_MAX_PER_OPERATION, maxPerOperation, 32);
        positive(GlobalSettings.WAIT_MAX_PER_CALLER, maxPerCaller, 16);
        positive(GlobalSettings.WAIT_MAX_JOINED, maxJoined, 8);
    }

    /** The total and per-key bounds, with the defaults for the others. */
    public WaitLimits(int maxTotal, int maxPerKey) {
        this(maxTotal, maxPerKey, 32, 16, 8);
    }

    private static void positive(String key, int value, int example) {
        if (value < 1) {
            throw new IdempotencyConfigurationException("Config key '" + key + "' is " + value
                    + "; set it to a positive number of waiting calls, such as " + example + ".");
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
        /** Waiters per operation ("o" + name) and per caller ("c" + name + NUL + caller); no zero entries. */
        private final ConcurrentHashMap<String, Integer> groups = new ConcurrentHashMap<>();

        private final AtomicInteger joined = new AtomicInteger();

        private Waiters(WaitLimits limits) {
            this.limits = limits;
        }

        /**
         * Counts a call in as waiting for {@code key}; false, counting nothing, when a bound is reached.
         *
         * @param joined whether the call waits in the caller's transaction (holding a connection)
         */
        boolean enter(RecordKey key, boolean joined) {
            if (total.incrementAndGet() > limits.maxTotal()) {
                total.decrementAndGet();
                return false;
            }
            if (joined && this.joined.incrementAndGet() > limits.maxJoined()) {
                this.joined.decrementAndGet();
                total.decrementAndGet();
                return false;
            }
            String operation = "o" + key.operation();
            String caller = key.caller().isEmpty() ? null : "c" + key.operation() + '\u0000' + key.caller();
            if (!join(operation, limits.maxPerOperation())) {
                undo(joined);
                return false;
            }
            if (caller != null && !join(caller, limits.maxPerCaller())) {
                part(operation);
                undo(joined);
                return false;
            }
            boolean[] admitted = {false};
            perKey.compute(key.storeKey(), (k, slot) -> {
                Slot s = slot == null ? new Slot() : slot;
                if (s.count < limits.maxPerKey()) {
                    s.count++;
                    admitted[0] = true;
                }
                return s;
            });
            if (!admitted[0]) {
                if (caller != null) {
                    part(caller);
                }
                part(operation);
                undo(joined);
            }
            return admitted[0];
        }

        /** Counts a waiting call out; the key's entry goes with its last waiter. */
        void leave(RecordKey key, boolean joined) {
            perKey.computeIfPresent(key.storeKey(), (k, s) -> --s.count == 0 ? null : s);
            if (!key.caller().isEmpty()) {
                part("c" + key.operation() + '\u0000' + key.caller());
            }
            part("o" + key.operation());
            undo(joined);
        }

        private boolean join(String group, int max) {
            boolean[] admitted = {false};
            groups.compute(group, (g, n) -> {
                int count = n == null ? 0 : n;
                if (count < max) {
                    admitted[0] = true;
                    return count + 1;
                }
                return n;
            });
            return admitted[0];
        }

        private void part(String group) {
            groups.computeIfPresent(group, (g, n) -> n == 1 ? null : n - 1);
        }

        private void undo(boolean joined) {
            if (joined) {
                this.joined.decrementAndGet();
            }
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
