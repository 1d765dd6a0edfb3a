package dev.idempotency.lock;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Named cluster-wide locks for scheduled jobs (in the manner of ShedLock), on the configured {@link
 * IdempotencyStore}: in each window one node runs the job and the others skip it.
 *
 * <ul>
 *   <li>{@link #tryLock}: a claim of the lock's key by a fresh owner with lease {@code atMostFor}. The
 *       lease end is the taking node's wall clock plus {@code atMostFor}, and every other node
 *       compares it with its own wall clock: every store measures time on the calling node. A node
 *       whose clock runs ahead by {@code s} sees the lock end {@code s} early, so keep the nodes'
 *       clocks synchronised (NTP). A holder that dies frees the lock when {@code atMostFor} ends.
 *   <li>{@link Lock#unlock}: if less than {@code atLeastFor} has passed since the lock was taken, the
 *       claim is completed with a ttl of the rest of {@code atLeastFor}, so the window stays locked
 *       (a job that ends quickly on one node is not started again by a node whose clock or schedule
 *       is slightly behind); otherwise the claim is released. Both are fenced by the owner: a holder
 *       that overran {@code atMostFor} and lost the lock to another node cannot unlock that node's
 *       lock.
 * </ul>
 *
 * <p>The time a lock was held is measured with this node's monotonic clock ({@link System#nanoTime()}),
 * which needs no agreement between nodes; only the lease end and the ttl compare wall clocks of
 * different nodes.
 */
public final class ClusterLocks {

    private static final System.Logger LOG = System.getLogger(ClusterLocks.class.getName());

    private static final String DOMAIN = "idempotency-ee/cluster-lock";
    private static final String FINGERPRINT = Hashing.sha256Hex(DOMAIN);
    private static final byte[] HELD_MARKER = "held-for-at-least".getBytes(StandardCharsets.UTF_8);

    private final IdempotencyStore store;
    private final LongSupplier nanoTime;
    private final Function<String, OperationEvents> events;
    private final ConcurrentHashMap<String, OperationEvents> locks = new ConcurrentHashMap<>();

    /** @param store the store that holds the locks */
    public ClusterLocks(IdempotencyStore store) {
        this(store, System::nanoTime);
    }

    /**
     * @param store the store that holds the locks
     * @param nanoTime a monotonic clock in nanoseconds, for the time a lock was held
     */
    public ClusterLocks(IdempotencyStore store, LongSupplier nanoTime) {
        this(store, nanoTime, name -> OperationEvents.NONE);
    }

    /**
     * @param store the store that holds the locks
     * @param nanoTime a monotonic clock in nanoseconds, for the time a lock was held
     * @param events where a lock's attempts are counted, by the name {@code lock:<name>} (the engine's
     *     {@link dev.idempotency.internal.core.IdempotencyEngine#events}): a lock taken is {@code executed}, a run
     *     skipped because another holder has it {@code in_progress}
     */
    public ClusterLocks(IdempotencyStore store, LongSupplier nanoTime, Function<String, OperationEvents> events) {
        this.store = Objects.requireNonNull(store, "store");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.events = Objects.requireNonNull(events, "events");
    }

    /**
     * Takes the named lock if no node holds it.
     *
     * @param name the lock's name, the same on every node that runs the job
     * @param atMostFor how long the lock is held at most, even if its holder never unlocks (dies)
     * @param atLeastFor how long the lock is held at least, even if the job ends sooner; at most
     *     {@code atMostFor}
     * @return the lock, or empty when another holder has it (the caller skips its run)
     */
    public Optional<Lock> tryLock(String name, Duration atMostFor, Duration atLeastFor) {
        LockSettings.check(name, atMostFor, atLeastFor, "Cluster lock '" + name + "'");
        String key = key(name);
        String owner = UUID.randomUUID().toString();
        long start = nanoTime.getAsLong();
        OperationEvents counted = locks.computeIfAbsent(name, n -> events.apply("lock:" + n));
        ClaimResult claim;
        try {
            claim = store.claim(key, owner, FINGERPRINT, atMostFor);
        } catch (IdempotencyStoreUnavailableException e) {
            counted.storeUnavailable();
            throw e;
        }
        if (!claim.claimed()) {
            counted.refusedInProgress();
            LOG.log(
                    Level.DEBUG,
                    "cluster lock {0} is held elsewhere until {1}; skipping this run",
                    name,
                    claim.record().expiresAt());
            return Optional.empty();
        }
        counted.executed(RecordLifecycle.isTakeover(claim.replaced()));
        return Optional.of(new Lock(name, key, owner, start, atLeastFor));
    }

    /** The store key of a lock name. */
    static String key(String name) {
        return Hashing.sha256Hex(DOMAIN, name);
    }

    /** A held lock. Unlock it once, when the job ends (also when it fails). */
    public final class Lock implements AutoCloseable {

        private final String name;
        private final String key;
        private final String owner;
        private final long startNanos;
        private final Duration atLeastFor;
        private boolean unlocked;

        private Lock(String name, String key, String owner, long startNanos, Duration atLeastFor) {
            this.name = name;
            this.key = key;
            this.owner = owner;
            this.startNanos = startNanos;
            this.atLeastFor = atLeastFor;
        }

        /** The lock's name. */
        public String name() {
            return name;
        }

        /**
         * Unlocks: keeps the window locked until {@code atLeastFor} has passed, else frees the lock at
         * once. Does nothing the second time.
         *
         * @return false when the lock was no longer this holder's (it overran {@code atMostFor} and
         *     another node took it); true otherwise
         */
        public boolean unlock() {
            if (unlocked) {
                return true;
            }
            unlocked = true;
            Duration held = Duration.ofNanos(nanoTime.getAsLong() - startNanos);
            Duration rest = atLeastFor.minus(held);
            boolean mine = rest.isNegative() || rest.isZero()
                    ? store.release(key, owner)
                    : store.complete(key, owner, HELD_MARKER, rest);
            if (!mine) {
                LOG.log(
                        Level.WARNING,
                        "cluster lock {0} was taken over by another holder before this run ended ({1}); raise atMostFor"
                                + " above the job''s longest run",
                        name,
                        held);
            }
            return mine;
        }

        /** Same as {@link #unlock()}. */
        @Override
        public void close() {
            unlock();
        }
    }
}
