package dev.idempotency.internal.stores.memory;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.stores.Throttle;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
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
 * <p>Bounded by {@link MemoryStoreSettings}: a claim that would create a record beyond the limits first
 * deletes the records that are no longer live; if that frees no room, the claim fails with {@link
 * IdempotencyStoreUnavailableException} (503 over HTTP) and the operation does not run. Nothing live is
 * ever evicted: not an IN_PROGRESS claim, not a COMPLETED outcome within its ttl. Completing a claim is
 * never refused (the operation already ran), so stored outcomes can take the byte count past its
 * limit until records expire. Claims of keys that have a record (replays, takeovers) always work.
 *
 * <p>Claims of a guarded operation ({@link GuardedOperation}, what the guard makes) are bounded by that
 * operation's share of the limits too ({@link MemoryStoreSettings#operationShare}), so that a flood of new
 * keys on one operation gets 503 on that operation only; and the records of one identified caller of an
 * operation ({@link GuardedOperation#caller()}) by that caller's share ({@link
 * MemoryStoreSettings#callerShare}), so that one client's flood gets 503 for that client only.
 */
public final class MemoryIdempotencyStore implements IdempotencyStore {

    /**
     * Heap bytes a record takes besides its outcome, as measured with {@code bench/memory.sh}
     * (docs/performance.md): the map entry, the record, its key, owner and fingerprint strings.
     */
    static final long RECORD_OVERHEAD_BYTES = 400;

    private static final System.Logger LOG = System.getLogger(MemoryIdempotencyStore.class.getName());

    /**
     * A record and the usage it is counted in.
     *
     * @param caller the caller's usage it is counted in too ({@link #callers}), or {@code null}
     */
    private record Held(IdempotencyRecord record, Usage usage, String caller) {}

    /** What the records of one caller of one operation hold; changed only within {@link #callers}' compute. */
    private static final class CallerUsage {
        long entries;
        long bytes;
    }

    /** What the records of one operation hold; {@code limited} false for calls outside any operation. */
    private static final class Usage {
        final String operation;
        final boolean limited;
        final AtomicLong entries = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();

        Usage(String operation, boolean limited) {
            this.operation = operation;
            this.limited = limited;
        }
    }

    private final ConcurrentHashMap<String, Held> records = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Usage> usages = new ConcurrentHashMap<>();
    /** Per operation and identified caller ({@code operation NUL caller}); an entry goes with its last record. */
    private final ConcurrentHashMap<String, CallerUsage> callers = new ConcurrentHashMap<>();

    private final Usage unbound = new Usage(null, false);
    private final Clock clock;
    private final MemoryStoreSettings limits;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final ReentrantLock sweeping = new ReentrantLock();
    private final AtomicLong refusedSinceWarning = new AtomicLong();
    private final Throttle fullWarning = new Throttle(Duration.ofMinutes(1));

    /** A store on the system clock with the default limits. */
    public MemoryIdempotencyStore() {
        this(Clock.systemUTC());
    }

    /** @param clock the store's clock: every lease and expiry is measured against it */
    public MemoryIdempotencyStore(Clock clock) {
        this(clock, MemoryStoreSettings.DEFAULT);
    }

    /**
     * @param clock the store's clock: every lease and expiry is measured against it
     * @param limits how many records and bytes the store holds at most
     */
    public MemoryIdempotencyStore(Clock clock, MemoryStoreSettings limits) {
        this.clock = clock;
        this.limits = limits;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return claim(unbound, null, key, owner, fingerprint, lease);
    }

    /**
     * A claim of a guarded operation is counted in, and bounded by, the operation's share of the
     * limits; a claim of no operation ({@link GuardedOperation#NONE}) only by the store's.
     */
    @Override
    public ClaimResult claim(GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        if (operation.joined()) {
            return IdempotencyStore.super.claim(operation, key, owner, fingerprint, lease); // refuses it
        }
        if (operation.name().isEmpty()) {
            return claim(unbound, null, key, owner, fingerprint, lease);
        }
        Usage usage = usages.get(operation.name());
        if (usage == null) {
            usage = usages.computeIfAbsent(operation.name(), o -> new Usage(o, limits.operationShare() < 1));
        }
        String caller = operation.caller().isEmpty() || limits.callerShare() >= 1
                ? null
                : operation.name() + '\u0000' + operation.caller();
        return claim(usage, caller, key, owner, fingerprint, lease);
    }

    private ClaimResult claim(
            Usage usage, String caller, String key, String owner, String fingerprint, Duration lease) {
        Instant now = clock.instant();
        Held seen = records.get(key);
        if (seen != null && !RecordLifecycle.isClaimable(seen.record(), now)) {
            // A live record changes only by expiring or through its owner: report it as read, without
            // taking the entry's lock (a replay, or a repeat while the first call runs).
            return ClaimResult.existing(seen.record());
        }
        IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
        IdempotencyRecord[] replaced = {null};
        IdempotencyRecord stored = tryClaim(usage, caller, key, claim, now, replaced);
        if (stored == null) {
            // Full: make room by deleting what is no longer live, then try once more.
            sweep();
            stored = tryClaim(usage, caller, key, claim, clock.instant(), replaced);
            if (stored == null) {
                throw full(usage, caller);
            }
        }
        return stored == claim ? ClaimResult.claimed(claim, replaced[0]) : ClaimResult.existing(stored);
    }

    /**
     * The claim or the live record in its way; {@code null} when a new record does not fit.
     *
     * @param replaced receives the record that the claim replaced, if any (for takeover metrics)
     */
    private IdempotencyRecord tryClaim(
            Usage usage,
            String caller,
            String key,
            IdempotencyRecord claim,
            Instant now,
            IdempotencyRecord[] replaced) {
        Held result = records.compute(key, (k, existing) -> {
            if (existing != null && !RecordLifecycle.isClaimable(existing.record(), now)) {
                return existing;
            }
            if (existing != null) {
                // A takeover replaces a record that is no longer live: no new entry.
                replaced[0] = existing.record();
                forget(existing);
                count(usage, 1, size(claim));
                countCaller(caller, 1, size(claim));
                return new Held(claim, usage, caller);
            }
            replaced[0] = null;
            return reserve(usage, caller, size(claim)) ? new Held(claim, usage, caller) : null;
        });
        return result == null ? null : result.record();
    }

    private boolean reserve(Usage usage, String caller, long size) {
        if (held.incrementAndGet() > limits.maxEntries()) {
            held.decrementAndGet();
            return false;
        }
        if (bytes.addAndGet(size) > limits.maxBytes()) {
            bytes.addAndGet(-size);
            held.decrementAndGet();
            return false;
        }
        if (usage.limited) {
            if (usage.entries.incrementAndGet() > limits.operationEntries()) {
                usage.entries.decrementAndGet();
                bytes.addAndGet(-size);
                held.decrementAndGet();
                return false;
            }
            if (usage.bytes.addAndGet(size) > limits.operationBytes()) {
                usage.bytes.addAndGet(-size);
                usage.entries.decrementAndGet();
                bytes.addAndGet(-size);
                held.decrementAndGet();
                return false;
            }
        } else {
            usage.entries.incrementAndGet();
            usage.bytes.addAndGet(size);
        }
        if (caller != null && !reserveCaller(caller, size)) {
            count(usage, -1, -size);
            return false;
        }
        return true;
    }

    /** Counts a new record in its caller's usage if the caller's share has room for it. */
    private boolean reserveCaller(String caller, long size) {
        boolean[] admitted = {false};
        callers.compute(caller, (c, u) -> {
            CallerUsage mine = u == null ? new CallerUsage() : u;
            if (mine.entries + 1 > limits.callerEntries() || mine.bytes + size > limits.callerBytes()) {
                return u;
            }
            mine.entries++;
            mine.bytes += size;
            admitted[0] = true;
            return mine;
        });
        return admitted[0];
    }

    /** Counts in (or, negative, out) a record of {@code caller}; the entry goes with its last record. */
    private void countCaller(String caller, long entries, long size) {
        if (caller == null) {
            return;
        }
        callers.compute(caller, (c, u) -> {
            CallerUsage mine = u == null ? new CallerUsage() : u;
            mine.entries += entries;
            mine.bytes += size;
            return mine.entries <= 0 ? null : mine;
        });
    }

    /** Whether {@code caller}'s records take its whole share. */
    private boolean atShare(String caller) {
        boolean[] full = {false};
        if (caller != null) {
            callers.computeIfPresent(caller, (c, u) -> {
                full[0] = u.entries >= limits.callerEntries() || u.bytes >= limits.callerBytes();
                return u;
            });
        }
        return full[0];
    }

    /** Counts a record in the store's and its usage's totals (negative amounts uncount). */
    private void count(Usage usage, long entries, long size) {
        held.addAndGet(entries);
        bytes.addAndGet(size);
        usage.entries.addAndGet(entries);
        usage.bytes.addAndGet(size);
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

    private IdempotencyStoreUnavailableException full(Usage usage, String caller) {
        // One operation at its share while the store has room: a flood on that operation, or a share
        // too small for it. Its callers get 503; the other operations are served. Likewise one caller of
        // an operation at the caller's share (its name is not logged: it is the caller's identity).
        boolean callerShare = atShare(caller);
        boolean share = callerShare
                || usage.limited
                        && (usage.entries.get() >= limits.operationEntries()
                                || usage.bytes.get() >= limits.operationBytes());
        String what = callerShare
                ? "One caller of operation '" + usage.operation + "' holds its share of the memory idempotency store ("
                        + MemoryStoreSettings.CALLER_SHARE + "=" + limits.callerShare() + " of "
                        + MemoryStoreSettings.MAX_ENTRIES + "=" + limits.maxEntries() + " and "
                        + MemoryStoreSettings.MAX_BYTES + "=" + limits.maxBytes() + ")"
                : share
                        ? "Operation '" + usage.operation + "' holds its share of the memory idempotency store ("
                                + MemoryStoreSettings.OPERATION_SHARE + "=" + limits.operationShare() + " of "
                                + MemoryStoreSettings.MAX_ENTRIES + "=" + limits.maxEntries() + " and "
                                + MemoryStoreSettings.MAX_BYTES + "=" + limits.maxBytes() + "; it holds "
                                + usage.entries.get()
                                + " records, about " + usage.bytes.get() + " bytes)"
                        : "The memory idempotency store is full (limits " + MemoryStoreSettings.MAX_ENTRIES + "="
                                + limits.maxEntries() + ", " + MemoryStoreSettings.MAX_BYTES + "=" + limits.maxBytes()
                                + "; it holds " + held.get() + " records, about " + bytes.get() + " bytes)";
        String fix = "Raise the limits" + (callerShare ? " or the caller share" : share ? " or the share" : "")
                + ", shorten idempotency.ttl, or use a shared store (idempotency.store=jpa, infinispan or redis).";
        long refused = refusedSinceWarning.incrementAndGet();
        if (fullWarning.pass()) {
            refusedSinceWarning.addAndGet(-refused);
            LOG.log(
                    Level.WARNING,
                    what + " and holds no expired record: " + refused
                            + " new claim(s) refused since the last warning, and those calls did not run. " + fix);
        }
        return new IdempotencyStoreUnavailableException(
                share ? usage.operation : null,
                null,
                what + " and every record in it is still live, so the call did not run; retry later. Operators: " + fix,
                null);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        Held h = records.get(key);
        IdempotencyRecord r = h == null ? null : h.record();
        return RecordLifecycle.isLive(r, clock.instant()) ? Optional.of(r) : Optional.empty();
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        Instant now = clock.instant();
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing.record(), owner)) {
                return existing;
            }
            done[0] = true;
            IdempotencyRecord completed = RecordLifecycle.complete(existing.record(), outcome, now, ttl);
            long grown = size(completed) - size(existing.record());
            count(existing.usage(), 0, grown);
            countCaller(existing.caller(), 0, grown);
            return new Held(completed, existing.usage(), existing.caller());
        });
        return done[0];
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        Instant now = clock.instant();
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing.record(), owner)) {
                return existing;
            }
            done[0] = true;
            return new Held(RecordLifecycle.renew(existing.record(), now, lease), existing.usage(), existing.caller());
        });
        return done[0];
    }

    @Override
    public boolean release(String key, String owner) {
        boolean[] done = {false};
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing.record(), owner)) {
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
            if (!RecordLifecycle.isCompletedBy(existing.record(), owner)) {
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
        for (Map.Entry<String, Held> e : records.entrySet()) {
            if (deleted >= max) {
                break;
            }
            // remove(key, value) deletes only the record we looked at: if a claim replaced it
            // meanwhile, the new live record stays.
            Held h = e.getValue();
            if (isPurgeable(h.record(), now) && records.remove(e.getKey(), h)) {
                forget(h);
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

    private void forget(Held h) {
        count(h.usage(), -1, -size(h.record()));
        countCaller(h.caller(), -1, -size(h.record()));
    }

    private static long size(IdempotencyRecord r) {
        return RECORD_OVERHEAD_BYTES + (r.outcome() == null ? 0 : r.outcome().length);
    }

    /** How many records (live or not yet purged) the store holds. */
    public int size() {
        return records.size();
    }

    /** The estimated heap bytes of the records held, as counted against {@link MemoryStoreSettings#maxBytes()}. */
    public long bytes() {
        return bytes.get();
    }
}
