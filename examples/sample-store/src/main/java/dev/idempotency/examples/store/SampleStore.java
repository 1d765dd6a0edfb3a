package dev.idempotency.examples.store;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A custom store, selected with {@code idempotency.store=sample}: records in a {@link ConcurrentHashMap}, where
 * each primitive runs in one {@code compute} on its key, so it is atomic with respect to every other primitive on
 * that key. The decisions (live? claimable? whose claim?) are {@link RecordLifecycle}'s, on this store's clock.
 *
 * <p>An example, not a production store: it is unbounded, and holds nothing across restarts or nodes.
 */
@ApplicationScoped
@Named("sample")
public class SampleStore implements IdempotencyStore {

    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    private final Clock clock;

    /** The store on the system clock, as CDI makes it. */
    public SampleStore() {
        this(Clock.systemUTC());
    }

    /** @param clock the store's clock: every lease and ttl is measured against it */
    public SampleStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        Instant now = clock.instant();
        IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
        AtomicReference<IdempotencyRecord> replaced = new AtomicReference<>();
        IdempotencyRecord stored = records.compute(key, (k, existing) -> {
            if (!RecordLifecycle.isClaimable(existing, now)) {
                return existing;
            }
            replaced.set(existing);
            return claim;
        });
        return stored == claim ? ClaimResult.claimed(claim, replaced.get()) : ClaimResult.existing(stored);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        IdempotencyRecord r = records.get(key);
        return RecordLifecycle.isLive(r, clock.instant()) ? Optional.of(r) : Optional.empty();
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        Instant now = clock.instant();
        AtomicBoolean done = new AtomicBoolean();
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done.set(true);
            return RecordLifecycle.complete(existing, outcome.clone(), now, ttl);
        });
        return done.get();
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        Instant now = clock.instant();
        AtomicBoolean done = new AtomicBoolean();
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done.set(true);
            return RecordLifecycle.renew(existing, now, lease);
        });
        return done.get();
    }

    @Override
    public boolean release(String key, String owner) {
        AtomicBoolean done = new AtomicBoolean();
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                return existing;
            }
            done.set(true);
            return null;
        });
        return done.get();
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        AtomicBoolean done = new AtomicBoolean();
        records.computeIfPresent(key, (k, existing) -> {
            if (!RecordLifecycle.isCompletedBy(existing, owner)) {
                return existing;
            }
            done.set(true);
            return null;
        });
        return done.get();
    }

    @Override
    public int purgeExpired(int max) {
        Instant now = clock.instant();
        int deleted = 0;
        for (Map.Entry<String, IdempotencyRecord> e : records.entrySet()) {
            if (deleted >= max) {
                break;
            }
            // remove(key, value) deletes only the record looked at: a claim that replaced it meanwhile stays.
            IdempotencyRecord r = e.getValue();
            if (RecordLifecycle.isClaimable(r, now) && records.remove(e.getKey(), r)) {
                deleted++;
            }
        }
        return deleted;
    }
}
