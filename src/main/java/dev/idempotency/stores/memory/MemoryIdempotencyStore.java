package dev.idempotency.stores.memory;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store in this JVM's memory: a {@link ConcurrentHashMap} whose per-key {@code compute} makes every
 * primitive atomic. Records do not survive a restart and are not shared between nodes: use it for a
 * single node, for development and for tests. Expired records are deleted by the scheduled purge.
 *
 * <p>Bounded by {@link MemoryStoreLimits}: a claim that would create a record beyond the limits first
 * deletes the records that are no longer live; if that frees no room, the claim fails with {@link
 * IdempotencyStoreUnavailableException} (503 over HTTP) and the operation does not run. Nothing live is
 * ever evicted: not an IN_PROGRESS claim, not a COMPLETED outcome within its ttl. Completing a claim is
 * never refused (the operation already ran), so stored outcomes can take the byte count past its
 * limit until records expire. Claims of keys that have a record (replays, takeovers) always work.
 */
public final class MemoryIdempotencyStore implements IdempotencyStore {

    /**
     * Heap bytes a record takes besides its outcome, as measured with {@code bench/memory.sh}
     * (docs/performance.md): the map entry, the record, its key, owner and fingerprint strings.
     */
    static final long RECORD_OVERHEAD_BYTES = 400;

    private static final System.Logger LOG = System.getLogger(MemoryIdempotencyStore.class.getName());
    private static final long WARN_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();

    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    private final Clock clock;
    private final MemoryStoreLimits limits;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final ReentrantLock sweeping = new ReentrantLock();
    private final AtomicLong refusedSinceWarning = new AtomicLong();
    private final AtomicLong nextWarningNanos = new AtomicLong(System.nanoTime());

    /** A store on the system clock with the default limits. */
    public MemoryIdempotencyStore() {
        this(Clock.systemUTC());
    }

    /** @param clock the store's clock: every lease and expiry is measured against it */
    public MemoryIdempotencyStore(Clock clock) {
        this(clock, MemoryStoreLimits.DEFAULT);
    }

    /**
     * @param clock the store's clock: every lease and expiry is measured against it
     * @param limits how many records and bytes the store holds at most
     */
    public MemoryIdempotencyStore(Clock clock, MemoryStoreLimits limits) {
        this.clock = clock;
        this.limits = limits;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        Instant now = clock.instant();
        IdempotencyRecord seen = records.get(key);
        if (seen != null && !RecordLifecycle.isClaimable(seen, now)) {
            // A live record changes only by expiring or through its owner: report it as read, without
            // taking the entry's lock (a replay, or a repeat while the first call runs).
            return ClaimResult.existing(seen);
        }
        IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
        IdempotencyRecord[] replaced = {null};
        IdempotencyRecord stored = tryClaim(key, claim, now, replaced);
        if (stored == null) {
            // Full: make room by deleting what is no longer live, then try once more.
            sweep();
            stored = tryClaim(key, claim, clock.instant(), replaced);
            if (stored == null) {
                throw full();
            }
        }
        return stored == claim ? ClaimResult.claimed(claim, replaced[0]) : ClaimResult.existing(stored);
    }

    /**
     * The claim or the live record in its way; {@code null} when a new record does not fit.
     *
     * @param replaced receives the record that the claim replaced, if any (for takeover metrics)
     */
    private IdempotencyRecord tryClaim(String key, IdempotencyRecord claim, Instant now, IdempotencyRecord[] replaced) {
        return records.compute(key, (k, existing) -> {
            if (!RecordLifecycle.isClaimable(existing, now)) {
                return existing;
            }
            replaced[0] = existing;
            if (existing != null) {
                // A takeover replaces a record that is no longer live: no new entry.
                bytes.addAndGet(size(claim) - size(existing));
                return claim;
            }
            return reserve(size(claim)) ? claim : null;
        });
    }

    private boolean reserve(long size) {
        if (held.incrementAndGet() > limits.maxEntries()) {
            held.decrementAndGet();
            return false;
        }
        if (bytes.addAndGet(size) > limits.maxBytes()) {
            bytes.addAndGet(-size);
            held.decrementAndGet();
            return false;
        }
        return true;
    }

    private void sweep() {
        if (sweeping.tryLock()) {
            try {
                purgeExpired(Integer.MAX_VALUE);
            } finally {
                sweeping.unlock();
            }
        } else {
            // Another claim is sweeping: wait for it rather than scan the map twice.
            sweeping.lock();
            sweeping.unlock();
        }
    }

    private IdempotencyStoreUnavailableException full() {
        long refused = refusedSinceWarning.incrementAndGet();
        long now = System.nanoTime();
        long next = nextWarningNanos.get();
        if (now - next >= 0 && nextWarningNanos.compareAndSet(next, now + WARN_INTERVAL_NANOS)) {
            refusedSinceWarning.addAndGet(-refused);
            LOG.log(
                    Level.WARNING,
                    "The memory idempotency store is full ({0} records, about {1} bytes; limits {2}={3},"
                            + " {4}={5}) and holds no expired record: {6} new claim(s) refused since the last"
                            + " warning, and those operations did not run. Raise the limits, shorten"
                            + " idempotency.ttl, or use a shared store (idempotency.store=jpa or infinispan).",
                    String.valueOf(held.get()),
                    String.valueOf(bytes.get()),
                    MemoryStoreLimits.MAX_ENTRIES,
                    String.valueOf(limits.maxEntries()),
                    MemoryStoreLimits.MAX_BYTES,
                    String.valueOf(limits.maxBytes()),
                    String.valueOf(refused));
        }
        return new IdempotencyStoreUnavailableException(
                null,
                null,
                "The memory idempotency store is full (limits " + MemoryStoreLimits.MAX_ENTRIES + "="
                        + limits.maxEntries() + ", " + MemoryStoreLimits.MAX_BYTES + "=" + limits.maxBytes()
                        + ") and every record in it is still live, so the operation did not run; retry later."
                        + " Operators: raise the limits, shorten idempotency.ttl, or use a shared store.",
                null);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        IdempotencyRecord r = records.get(key);
        return RecordLifecycle.isLive(r, clock.instant()) ? Optional.of(r) : Optional.empty();
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        Instant now = clock.instant();
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done[0] = true;
            IdempotencyRecord completed = RecordLifecycle.complete(existing, outcome, now, ttl);
            bytes.addAndGet(size(completed) - size(existing));
            return completed;
        });
        return done[0];
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        Instant now = clock.instant();
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done[0] = true;
            return RecordLifecycle.renew(existing, now, lease);
        });
        return done[0];
    }

    @Override
    public boolean release(String key, String owner) {
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done[0] = true;
            forget(existing);
            return null;
        });
        return done[0];
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isCompletedBy(existing, owner)) {
                return existing;
            }
            done[0] = true;
            forget(existing);
            return null;
        });
        return done[0];
    }

    @Override
    public int purgeExpired(int max) {
        Instant now = clock.instant();
        int deleted = 0;
        for (Map.Entry<String, IdempotencyRecord> e : records.entrySet()) {
            if (deleted >= max) {
                break;
            }
            // remove(key, value) deletes only the record we looked at: if a claim replaced it
            // meanwhile, the new live record stays.
            IdempotencyRecord r = e.getValue();
            if (isPurgeable(r, now) && records.remove(e.getKey(), r)) {
                forget(r);
                deleted++;
            }
        }
        return deleted;
    }

    /**
     * A COMPLETED record past its ttl, or an IN_PROGRESS claim past its lease and the claim grace: an
     * owner that overran its lease without a competitor can still store its outcome, so a repeat
     * replays it rather than running again. A claim may take the key over as soon as the lease ends.
     */
    private boolean isPurgeable(IdempotencyRecord r, Instant now) {
        if (r.status() == dev.idempotency.spi.RecordStatus.IN_PROGRESS) {
            return !r.expiresAt().plus(limits.claimGrace()).isAfter(now);
        }
        return RecordLifecycle.isClaimable(r, now);
    }

    private void forget(IdempotencyRecord r) {
        held.decrementAndGet();
        bytes.addAndGet(-size(r));
    }

    private static long size(IdempotencyRecord r) {
        return RECORD_OVERHEAD_BYTES + (r.outcome() == null ? 0 : r.outcome().length);
    }

    /** How many records (live or not yet purged) the store holds. */
    public int size() {
        return records.size();
    }

    /** The estimated heap bytes of the records held, as counted against {@link MemoryStoreLimits#maxBytes()}. */
    public long bytes() {
        return bytes.get();
    }
}
