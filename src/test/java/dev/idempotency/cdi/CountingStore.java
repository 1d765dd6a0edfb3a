package dev.idempotency.cdi;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.stores.memory.MemoryIdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** A user's own store, selected by its CDI name; counts claims to prove it is the one used. */
@Named("counting")
@ApplicationScoped
public class CountingStore implements IdempotencyStore {

    private final AtomicInteger claims = new AtomicInteger();
    private final MemoryIdempotencyStore delegate = new MemoryIdempotencyStore();

    /** How many claims reached this store. */
    public int claims() {
        return claims.get();
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        claims.incrementAndGet();
        return delegate.claim(key, owner, fingerprint, lease);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        return delegate.read(key);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return delegate.complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        return delegate.release(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return delegate.purgeExpired(max);
    }
}
