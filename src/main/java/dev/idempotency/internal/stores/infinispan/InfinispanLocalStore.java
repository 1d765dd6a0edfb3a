package dev.idempotency.internal.stores.infinispan;

import static dev.idempotency.spi.StoreSupport.keyHash;
import static dev.idempotency.spi.StoreSupport.millis;
import static dev.idempotency.spi.StoreSupport.saturatedAdd;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import jakarta.transaction.RollbackException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.infinispan.Cache;
import org.infinispan.commons.CacheException;
import org.infinispan.transaction.WriteSkewException;

/**
 * The store of one node: an embedded, non-clustered Infinispan cache. A cluster of nodes uses {@link
 * InfinispanRaftStore} instead, because a clustered cache's conditional writes are not atomic while
 * members join, leave or die (docs/internals.md, "The Infinispan cluster").
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
 * only to that exact record: this is the owner fencing. On a transactional cache, a write rolled back
 * because another transaction changed the record first counts as "the condition did not hold": the
 * store reads again and decides again.
 *
 * <p>Expiry is Infinispan's lifespan: a COMPLETED record lives exactly its ttl. An IN_PROGRESS
 * record lives its lease <em>plus a grace</em> ({@code idempotency.infinispan.claim-grace}): once the
 * lease ends the key is claimable (liveness is the record's {@code expiresAt}, not the entry's
 * presence), but an owner that ran past its lease can still complete as long as nobody took over,
 * which the SPI requires. Nothing is purged on the request path, and {@link #purgeExpired} deletes
 * nothing: Infinispan's expiration reaper removes entries whose lifespan ended.
 */
public final class InfinispanLocalStore implements IdempotencyStore, AutoCloseable {

    /** How often a conditional write is retried after another writer changed the record meanwhile. */
    private static final int MAX_ATTEMPTS = 64;

    private final Cache<String, IdempotencyRecord> cache;
    private final Clock clock;
    private final long graceMillis;
    private final Runnable onClose;

    /**
     * @param cache the local cache that holds the records (keys: namespaced keys; values: records)
     * @param clock the store's clock, against which leases and ttls are measured
     * @param claimGrace how long an IN_PROGRESS entry outlives its lease, so that a late owner can
     *     still complete it
     * @param onClose what {@link #close()} stops (the cache manager this store created), or {@code
     *     null} when the cache belongs to someone else
     * @throws IllegalArgumentException the cache is clustered
     */
    public InfinispanLocalStore(
            Cache<String, IdempotencyRecord> cache, Clock clock, Duration claimGrace, Runnable onClose) {
        if (cache.getCacheConfiguration().clustering().cacheMode().isClustered()) {
            throw new IllegalArgumentException("cache '" + cache.getName() + "' is clustered ("
                    + cache.getCacheConfiguration().clustering().cacheMode()
                    + "); a cluster's records are an InfinispanRaftStore's");
        }
        this.cache = cache;
        this.clock = clock;
        this.graceMillis = millis(claimGrace);
        this.onClose = onClose;
    }

    /**
     * A store on a local cache that someone else manages, with the system clock.
     *
     * @param cache the cache that holds the records
     * @param claimGrace see {@link #InfinispanLocalStore(Cache, Clock, Duration, Runnable)}
     */
    public InfinispanLocalStore(Cache<String, IdempotencyRecord> cache, Duration claimGrace) {
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
                Instant now = clock.instant();
                IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
                long lifespan = saturatedAdd(millis(lease), graceMillis);
                IdempotencyRecord existing;
                try {
                    existing = cache.putIfAbsent(key, claim, lifespan, TimeUnit.MILLISECONDS);
                } catch (CacheException e) {
                    if (isWriteConflict(e)) {
                        continue; // rolled back: another claim of this key committed first; look again
                    }
                    throw e;
                }
                if (existing == null) {
                    return ClaimResult.claimed(claim);
                }
                if (!RecordLifecycle.isClaimable(existing, now)) {
                    return ClaimResult.existing(existing);
                }
                // Take over the ended lease or retention, but only if the record is still the one we
                // judged: a concurrent claim or a late complete makes this replace fail, and we re-read.
                if (conditionally(() -> cache.replace(key, existing, claim, lifespan, TimeUnit.MILLISECONDS))) {
                    return ClaimResult.claimed(claim, existing);
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
        return guarded("complete", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                IdempotencyRecord existing = cache.get(key);
                if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                    return false;
                }
                IdempotencyRecord done = RecordLifecycle.complete(existing, outcome, clock.instant(), ttl);
                if (conditionally(() -> cache.replace(key, existing, done, millis(ttl), TimeUnit.MILLISECONDS))) {
                    return true;
                }
                // The record changed between read and replace (a takeover, or the entry expired): decide again.
            }
            throw contended("complete", key);
        });
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        return guarded("renew", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                IdempotencyRecord existing = cache.get(key);
                if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                    return false;
                }
                Instant now = clock.instant();
                IdempotencyRecord renewed = RecordLifecycle.renew(existing, now, lease);
                long lifespan =
                        saturatedAdd(Math.max(0, renewed.expiresAt().toEpochMilli() - now.toEpochMilli()), graceMillis);
                if (conditionally(() -> cache.replace(key, existing, renewed, lifespan, TimeUnit.MILLISECONDS))) {
                    return true;
                }
                // The record changed between read and replace (a takeover, or the entry expired): decide again.
            }
            throw contended("renew", key);
        });
    }

    @Override
    public boolean release(String key, String owner) {
        return removeIf("release", key, r -> RecordLifecycle.isOwnedBy(r, owner));
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return removeIf("delete", key, r -> RecordLifecycle.isCompletedBy(r, owner));
    }

    private boolean removeIf(String action, String key, Predicate<IdempotencyRecord> test) {
        return guarded(action, key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                IdempotencyRecord existing = cache.get(key);
                if (!test.test(existing)) {
                    return false;
                }
                if (conditionally(() -> cache.remove(key, existing))) {
                    return true;
                }
            }
            throw contended(action, key);
        });
    }

    /**
     * Deletes nothing and returns 0: Infinispan removes each entry when its lifespan ends, and an
     * IN_PROGRESS entry whose lease ended must stay until its grace ends so that its owner can still
     * complete it.
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

    private <T> T guarded(String action, String key, Supplier<T> work) {
        try {
            return work.get();
        } catch (CacheException e) {
            // IllegalLifecycleStateException (cache stopping), a lock timeout on a transactional cache.
            throw new IdempotencyStoreUnavailableException(
                    null,
                    keyHash(key),
                    "The Infinispan idempotency cache '" + cache.getName() + "' failed during " + action + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Runs a conditional write; on a transactional cache, a write conflict (another transaction changed
     * the record after this one read it) counts as "the condition did not hold": the caller re-reads
     * and decides again.
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
     * Whether a failed write was rolled back, and so applied nowhere: Infinispan reports a failed
     * prepare (a write-skew check, typically) as a failure whose causes hold a {@link
     * RollbackException} or a {@link WriteSkewException}.
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

    private IdempotencyStoreUnavailableException contended(String action, String key) {
        return new IdempotencyStoreUnavailableException(
                null,
                keyHash(key),
                "The Infinispan record changed under " + action + " " + MAX_ATTEMPTS
                        + " times in a row; retry the call.",
                null);
    }
}
