package dev.idempotency.stores.memory;

import dev.idempotency.core.RecordLifecycle;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store in this JVM's memory: a {@link ConcurrentHashMap} whose per-key {@code compute} makes every
 * primitive atomic. Records do not survive a restart and are not shared between nodes: use it for a
 * single node, for development and for tests. Expired records are deleted by the scheduled purge.
 */
public final class MemoryIdempotencyStore implements IdempotencyStore {

    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    private final Clock clock;

    /** A store on the system clock. */
    public MemoryIdempotencyStore() {
        this(Clock.systemUTC());
    }

    /** @param clock the store's clock: every lease and expiry is measured against it */
    public MemoryIdempotencyStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        Instant now = clock.instant();
        IdempotencyRecord claim = RecordLifecycle.claim(key, owner, fingerprint, now, lease);
        IdempotencyRecord stored =
                records.compute(key, (k, existing) -> RecordLifecycle.isClaimable(existing, now) ? claim : existing);
        return stored == claim ? ClaimResult.claimed(claim) : ClaimResult.existing(stored);
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
            return RecordLifecycle.complete(existing, outcome, now, ttl);
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
            if (RecordLifecycle.isClaimable(e.getValue(), now) && records.remove(e.getKey(), e.getValue())) {
                deleted++;
            }
        }
        return deleted;
    }

    /** How many records (live or not yet purged) the store holds. */
    public int size() {
        return records.size();
    }
}
