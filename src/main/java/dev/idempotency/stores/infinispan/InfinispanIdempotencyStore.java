package dev.idempotency.stores.infinispan;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.core.RecordLifecycle;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordStatus;
import jakarta.transaction.RollbackException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.infinispan.Cache;
import org.infinispan.commons.CacheException;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.remoting.rpc.RpcManager;
import org.infinispan.topology.CacheTopology;
import org.infinispan.transaction.WriteSkewException;

/**
 * A store on an embedded Infinispan cache: a local cache on one node, or a clustered cache shared by
 * every node that joins the same Infinispan cluster.
 *
 * <p>Every primitive is one of the cache's atomic conditional writes, and every decision is {@link
 * RecordLifecycle}'s:
 *
 * <ul>
 *   <li>claim: {@code putIfAbsent}; if a record is there but not live, {@code replace(key, seen,
 *       claim)}, which fails if anyone changed the record since it was read;
 *   <li>complete: {@code replace(key, ownersClaim, completed)};
 *   <li>release: {@code remove(key, ownersClaim)}.
 * </ul>
 *
 * <p>The compare of {@code replace} and {@code remove} is {@link IdempotencyRecord#equals}, which
 * covers every field, the owner token included, so a write that was decided on a record is applied
 * only to that exact record: this is the owner fencing.
 *
 * <p>On the shipped clustered configuration each write is an optimistic transaction whose write-skew
 * check fails it, instead of applying it, when the record changed after it was read. Such a
 * rolled-back write counts as "the condition did not hold": the store reads again and decides again.
 * A claim that finds a record with its own owner token owns the key: its write was applied after
 * all (a write retried across a topology change can report otherwise). Any other failure is {@link
 * IdempotencyStoreUnavailableException}; the caller does not run.
 *
 * <p>Membership changes. While members join or leave, Infinispan can apply a conditional write whose
 * condition no longer holds, or report an applied write as failed (ISPN-3422, ISPN-7140). Two rules
 * keep that from running a key twice or losing an outcome:
 *
 * <ul>
 *   <li>A claim is written only in a steady topology (no rebalance in progress; it waits up to {@link
 *       #STEADY_WAIT} for one), and it wins only if the topology is still the same when the write
 *       returned. Otherwise the call is refused as unavailable (503) and does not run.
 *   <li>A complete that finds, instead of its own claim, an IN_PROGRESS claim of another owner that was
 *       created before its own lease ended knows that claim is a phantom (a legitimate takeover
 *       happens only after the lease ended) and replaces it with its outcome. A complete whose write
 *       straddled a topology change checks the stored record again once the topology is steady.
 * </ul>
 *
 * <p>Expiry is Infinispan's lifespan: a COMPLETED record lives exactly its ttl. An IN_PROGRESS
 * record lives its lease <em>plus a grace</em> ({@code idempotency.infinispan.claim-grace}): once the
 * lease ends the key is claimable (liveness is the record's {@code expiresAt}, not the entry's
 * presence), but an owner that ran past its lease can still complete as long as nobody took over,
 * which the SPI requires. Nothing is purged on the request path, and {@link #purgeExpired} deletes
 * nothing: Infinispan's expiration reaper removes entries whose lifespan ended.
 *
 * <p>The store's clock is the node's wall clock; in a cluster the nodes' clocks must be synchronised
 * (NTP), as Infinispan's own lifespans assume.
 */
public final class InfinispanIdempotencyStore implements IdempotencyStore, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(InfinispanIdempotencyStore.class.getName());

    /** How often a conditional write is retried after another writer changed the record meanwhile. */
    private static final int MAX_ATTEMPTS = 64;

    /** How long a write waits for a rebalance to end before the store refuses the call. */
    static final Duration STEADY_WAIT = Duration.ofSeconds(10);

    /**
     * How long a complete or release keeps trying through failures that are not lost races. Long,
     * because a node killed in the middle of a transaction on the key can leave the key locked until
     * the next view change (measured: until the killed node rejoined, 59 s later); giving up earlier
     * leaves the claim to be taken over, and the operation to run again, once the lock is gone.
     */
    static final Duration SETTLE_PATIENCE = Duration.ofMinutes(2);

    /** Size of {@link #claims} from which a claim first drops the entries whose grace ended. */
    private static final int CLAIMS_SWEEP_SIZE = 4096;

    private final Cache<String, IdempotencyRecord> cache;

    /**
     * The claims this node won and whose owner has not completed or released them yet, by owner
     * token: {@link #complete} needs its own claim to recognise a phantom written over it.
     */
    private final Map<String, IdempotencyRecord> claims = new ConcurrentHashMap<>();

    private final Clock clock;
    private final long graceMillis;
    private final Runnable onClose;

    /**
     * @param cache the cache that holds the records (keys: namespaced keys; values: records)
     * @param clock the store's clock, against which leases and ttls are measured
     * @param claimGrace how long an IN_PROGRESS entry outlives its lease, so that a late owner can
     *     still complete it
     * @param onClose what {@link #close()} stops (the cache manager this store created), or {@code
     *     null} when the cache belongs to someone else
     */
    public InfinispanIdempotencyStore(
            Cache<String, IdempotencyRecord> cache, Clock clock, Duration claimGrace, Runnable onClose) {
        this.cache = cache;
        this.clock = clock;
        this.graceMillis = millis(claimGrace);
        this.onClose = onClose;
    }

    /**
     * A store on a cache that someone else manages, with the system clock.
     *
     * @param cache the cache that holds the records
     * @param claimGrace see {@link #InfinispanIdempotencyStore(Cache, Clock, Duration, Runnable)}
     */
    public InfinispanIdempotencyStore(Cache<String, IdempotencyRecord> cache, Duration claimGrace) {
        this(cache, Clock.systemUTC(), claimGrace, null);
    }

    /** The cache that holds the records. */
    public Cache<String, IdempotencyRecord> cache() {
        return cache;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return guarded("claim", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                // Writes are decided in a steady topology and must stay in it (see Topology).
                Topology before = awaitSteadyTopology(key);
                Instant now = clock.instant();
                IdempotencyRecord claim = RecordLifecycle.claim(key, owner, fingerprint, now, lease);
                long lifespan = saturatedAdd(millis(lease), graceMillis);
                // Read first: a duplicate of a live record (the common case under contention) decides
                // on a plain read and never starts a write. Racing claimers' writes are what made an
                // owner's completion roll back on the write-skew check again and again on a cluster.
                // A stale read can only make this call refuse (in progress) or replay, never run.
                IdempotencyRecord seen = cache.get(key);
                if (seen != null
                        && !RecordLifecycle.isClaimable(seen, now)
                        && !RecordLifecycle.isOwnedBy(seen, owner)) {
                    return ClaimResult.existing(seen);
                }
                IdempotencyRecord existing;
                try {
                    existing = cache.putIfAbsent(key, claim, lifespan, TimeUnit.MILLISECONDS);
                } catch (CacheException e) {
                    if (isWriteConflict(e)) {
                        continue; // rolled back, e.g. another claim of this key committed first: look again
                    }
                    throw e;
                }
                if (existing == null) {
                    return won(key, owner, claim, before, null);
                }
                // A claim made by this very owner (tokens are unique per call) is ours: a write that
                // Infinispan retried across a topology change, or an attempt of this loop that was
                // reported as failed, can have been applied after all.
                if (RecordLifecycle.isOwnedBy(existing, owner)) {
                    return won(key, owner, existing, before, null);
                }
                if (!RecordLifecycle.isClaimable(existing, now)) {
                    return ClaimResult.existing(existing);
                }
                // Take over the ended lease or retention, but only if the record is still the one we
                // judged: a concurrent claim or a late complete makes this replace fail, and we re-read.
                if (conditionally(() -> cache.replace(key, existing, claim, lifespan, TimeUnit.MILLISECONDS))) {
                    return won(key, owner, claim, before, existing);
                }
            }
            throw contended("claim", key);
        });
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        return guarded("read", key, () -> {
            IdempotencyRecord r = cache.get(key);
            return RecordLifecycle.isLive(r, clock.instant()) ? Optional.of(r) : Optional.empty();
        });
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        IdempotencyRecord mine = claims.get(owner);
        try {
            return completeAs(key, owner, mine, outcome, ttl);
        } finally {
            claims.remove(owner);
        }
    }

    private boolean completeAs(String key, String owner, IdempotencyRecord mine, byte[] outcome, Duration ttl) {
        // Whether our outcome may be stored already: a write of it was applied, or an attempt failed
        // in a way that can have applied it.
        boolean[] maybeStored = {false};
        return guarded(
                "complete",
                key,
                () -> persistently("complete", key, retry -> {
                    maybeStored[0] |= retry;
                    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                        Topology before = awaitSteadyTopology(key);
                        IdempotencyRecord existing = cache.get(key);
                        IdempotencyRecord next;
                        if (RecordLifecycle.isCompletedBy(existing, owner)) {
                            if (!maybeStored[0]) {
                                return false; // completed by an earlier call: an outcome is stored once
                            }
                            // Ours, written while the membership changed: write it again in a steady topology,
                            // so that every current owner holds it (an owner that received the key's state
                            // during the change can hold the claim it replaced).
                            next = new IdempotencyRecord(
                                    key,
                                    RecordStatus.COMPLETED,
                                    owner,
                                    existing.fingerprint(),
                                    clock.instant().plus(ttl),
                                    existing.outcome(),
                                    existing.createdAt());
                        } else if (RecordLifecycle.isOwnedBy(existing, owner)) {
                            next = RecordLifecycle.complete(existing, outcome, clock.instant(), ttl);
                        } else if (isPhantom(existing, mine)) {
                            // Another owner's claim that was written while ours was live: no legitimate claim
                            // can be (a takeover needs our lease to have ended), so it is a duplicate's write
                            // that a membership change applied although its condition failed; its caller was
                            // told it lost, or "unavailable", and did not run. Our outcome replaces it.
                            LOG.log(
                                    System.Logger.Level.DEBUG,
                                    "Infinispan complete of key {0}: replacing a claim written while ours was live ({1})",
                                    hash(key),
                                    existing);
                            next = RecordLifecycle.complete(mine, outcome, clock.instant(), ttl);
                        } else {
                            return false;
                        }
                        if (conditionally(
                                () -> cache.replace(key, existing, next, millis(ttl), TimeUnit.MILLISECONDS))) {
                            maybeStored[0] = true;
                            if (stayedSteady(before)) {
                                return true;
                            }
                            // The membership changed during the write: loop, and once the topology is steady
                            // again, decide on what is stored (write it again, or replace a phantom).
                        }
                        // Otherwise the record changed between read and replace: a takeover (the re-read then
                        // says "not owned"), or the entry expired; loop to decide on what is there now.
                    }
                    throw contended("complete", key);
                }));
    }

    @Override
    public boolean release(String key, String owner) {
        claims.remove(owner);
        return guarded(
                "release",
                key,
                () -> persistently("release", key, retry -> {
                    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                        IdempotencyRecord existing = cache.get(key);
                        if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                            return false;
                        }
                        if (conditionally(() -> cache.remove(key, existing))) {
                            return true;
                        }
                    }
                    throw contended("release", key);
                }));
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return guarded("delete", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                IdempotencyRecord existing = cache.get(key);
                if (!RecordLifecycle.isCompletedBy(existing, owner)) {
                    return false;
                }
                if (conditionally(() -> cache.remove(key, existing))) {
                    return true;
                }
            }
            throw contended("delete", key);
        });
    }

    /**
     * Deletes nothing and returns 0: Infinispan removes each entry when its lifespan ends, and an
     * IN_PROGRESS entry whose lease ended must stay until its grace ends so that its owner can still
     * complete it. Scanning a clustered cache from every node's purge timer would only add load.
     */
    @Override
    public int purgeExpired(int max) {
        return 0;
    }

    /** Stops the cache manager this store created; a cache supplied by the application is left running. */
    @Override
    public void close() {
        if (onClose != null) {
            onClose.run();
        }
    }

    /**
     * Runs a complete or release again after a failure that is not a lost race (a remote call that
     * timed out or whose target died, a rebalance that outlasted {@link #STEADY_WAIT}) until it
     * succeeds or {@link #SETTLE_PATIENCE} has passed. The operation already ran: an outcome that is not
     * stored lets a retry run it again once the lease ends, so waiting out a membership change is
     * worth more than answering fast. Each attempt decides again on a fresh read; {@code attempt}
     * is told whether it is a retry, since a failed attempt's write may have been applied.
     */
    private <T> T persistently(String operation, String key, Function<Boolean, T> attempt) {
        long deadline = System.nanoTime() + SETTLE_PATIENCE.toNanos();
        for (boolean retry = false; ; retry = true) {
            try {
                return attempt.apply(retry);
            } catch (CacheException | IdempotencyStoreUnavailableException e) {
                if (System.nanoTime() >= deadline) {
                    throw e;
                }
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Infinispan {0} of key {1} failed, trying again: {2}",
                        operation,
                        hash(key),
                        e);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    // ---------------------------------------------------------------- membership changes

    /**
     * Records the claim this call won and returns it, unless the cache's topology changed while the
     * claim was decided and written: then the write's outcome is uncertain (Infinispan can apply a
     * conditional write whose condition no longer holds while members join or leave, or report a
     * write as failed that was applied, and another caller's claim can be in the same state), so the
     * call must not run. It gets {@link IdempotencyStoreUnavailableException}: 503, retry. A claim of
     * ours that did land holds the key until its lease ends, and is then taken over.
     */
    private ClaimResult won(
            String key, String owner, IdempotencyRecord claim, Topology before, IdempotencyRecord replaced) {
        if (!stayedSteady(before)) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "Infinispan claim of key {0}: the topology changed during the claim ({1} -> {2}); refused",
                    hash(key),
                    before,
                    topology());
            throw new IdempotencyStoreUnavailableException(
                    null,
                    hash(key),
                    "The Infinispan cluster's membership changed while the key was being claimed, so the"
                            + " claim is uncertain and the call did not run. Retry it: if the claim was"
                            + " stored, the retry is refused as in progress until the lease ends.",
                    null);
        }
        if (claims.size() >= CLAIMS_SWEEP_SIZE) {
            Instant now = clock.instant();
            claims.values().removeIf(c -> c.expiresAt().plusMillis(graceMillis).isBefore(now));
        }
        claims.put(owner, claim);
        return replaced == null ? ClaimResult.claimed(claim) : ClaimResult.claimed(claim, replaced);
    }

    /**
     * Whether {@code stored} is a claim that cannot be legitimate next to {@code mine}, this node's
     * live claim of the key: an IN_PROGRESS record of another owner created before {@code mine}'s
     * lease ended. A legitimate claim of a key we hold is a takeover, and a takeover is only made at or
     * after our lease end by the taker's clock, which is the clock of its {@code createdAt}: so the
     * test does not depend on the nodes' clocks agreeing.
     */
    static boolean isPhantom(IdempotencyRecord stored, IdempotencyRecord mine) {
        return mine != null
                && stored != null
                && stored.status() == RecordStatus.IN_PROGRESS
                && !stored.owner().equals(mine.owner())
                && stored.createdAt() != null
                && stored.createdAt().isBefore(mine.expiresAt());
    }

    /**
     * The cluster as this node sees it: the JGroups view id (a member joined, left or died), the cache
     * topology id (Infinispan increments it at every membership change of the cache and at every phase
     * of the rebalance that follows) and whether the topology is steady (no rebalance in progress).
     * The view id matters on its own: a write that waits for the lock of a transaction whose node
     * died gets that lock when a later view change cleans the transaction up, and two claims released
     * that way were both applied (measured: two winners of one key, 8 ms apart).
     */
    record Topology(int view, int id, boolean steady) {}

    /** This node's view of the cluster; {@code null} for a local (not clustered) cache. */
    private Topology topology() {
        DistributionManager dm = cache.getAdvancedCache().getDistributionManager();
        RpcManager rpc = cache.getAdvancedCache().getRpcManager();
        CacheTopology t = dm == null ? null : dm.getCacheTopology();
        if (t == null || rpc == null) {
            return null;
        }
        return new Topology(
                rpc.getTransport().getViewId(), t.getTopologyId(), t.getPhase() == CacheTopology.Phase.NO_REBALANCE);
    }

    /** Whether the topology is still {@code before} and {@code before} was steady (always, locally). */
    private boolean stayedSteady(Topology before) {
        return before == null || (before.steady() && before.equals(topology()));
    }

    /**
     * Waits until no rebalance is in progress, at most {@link #STEADY_WAIT}; the store is unavailable
     * for this call if the cluster is still rebalancing then.
     */
    private Topology awaitSteadyTopology(String key) {
        Topology t = topology();
        if (t == null || t.steady()) {
            return t;
        }
        long deadline = System.nanoTime() + STEADY_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            t = topology();
            if (t.steady()) {
                return t;
            }
        }
        throw new IdempotencyStoreUnavailableException(
                null,
                hash(key),
                "The Infinispan cluster has been rebalancing for " + STEADY_WAIT.toSeconds()
                        + " s after a membership change (topology " + t + "); the call did not run. Retry it.",
                null);
    }

    private <T> T guarded(String operation, String key, Supplier<T> action) {
        Topology before = topology();
        try {
            return action.get();
        } catch (CacheException e) {
            // AvailabilityException (minority partition), TimeoutException (lock or remote call),
            // IllegalLifecycleStateException (cache stopping) all extend these. A claim or read that
            // failed while members joined or left is a handled refusal (the caller did not run and
            // retries): DEBUG. Anything else, and a complete or release that failed even after waiting
            // out a membership change, needs an operator: WARNING.
            boolean handled = (operation.equals("claim") || operation.equals("read")) && !stayedSteady(before);
            LOG.log(
                    handled ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                    "Infinispan {0} of key {1} failed: {2}",
                    operation,
                    hash(key),
                    e);
            throw new IdempotencyStoreUnavailableException(
                    null,
                    hash(key),
                    "The Infinispan idempotency cache '" + cache.getName() + "' failed during " + operation
                            + ": " + e.getMessage()
                            + ". If the cluster is split, this node is in a minority partition and refuses"
                            + " writes until it rejoins; otherwise check the cluster's health.",
                    e);
        }
    }

    /**
     * Runs a conditional write; a write conflict (another transaction changed the record after this
     * one read it, detected by the optimistic transaction's write-skew check) counts as "the condition
     * did not hold": the caller re-reads and decides again.
     */
    private static boolean conditionally(BooleanSupplier write) {
        try {
            return write.getAsBoolean();
        } catch (CacheException e) {
            if (isWriteConflict(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Whether a failed write was rolled back, and so applied nowhere: the optimistic transaction's
     * prepare failed, typically its write-skew check (another transaction changed the record after
     * this one read it). Infinispan reports that as a commit failure whose causes hold a {@link
     * RollbackException} (the {@link WriteSkewException} itself is often not among them). Any other
     * failure (a timeout, a minority partition) is not a lost race and makes the store unavailable.
     */
    private static boolean isWriteConflict(Throwable e) {
        Throwable t = e;
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof WriteSkewException || t instanceof RollbackException) {
                return true;
            }
        }
        return false;
    }

    private IdempotencyStoreUnavailableException contended(String operation, String key) {
        return new IdempotencyStoreUnavailableException(
                null,
                hash(key),
                "The Infinispan record changed under " + operation + " " + MAX_ATTEMPTS
                        + " times in a row; retry the call.",
                null);
    }

    /** Keys are already SHA-256 hex; a prefix is enough to correlate log lines. */
    private static String hash(String key) {
        return key.length() > 12 ? key.substring(0, 12) : key;
    }

    /** Infinispan adds a lifespan to a timestamp; capping it keeps that sum from overflowing. */
    private static final long MAX_LIFESPAN_MILLIS = Duration.ofDays(365L * 100).toMillis();

    private static long millis(Duration d) {
        if (d.compareTo(Duration.ofMillis(MAX_LIFESPAN_MILLIS)) >= 0) {
            return MAX_LIFESPAN_MILLIS;
        }
        return Math.max(1, d.toMillis());
    }

    private static long saturatedAdd(long a, long b) {
        return Math.min(MAX_LIFESPAN_MILLIS, a + b);
    }
}
