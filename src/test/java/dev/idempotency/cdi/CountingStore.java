package dev.idempotency.cdi;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.DelegatingStore;
import dev.idempotency.stores.memory.MemoryIdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A user's own store, selected by its CDI name; counts claims to prove it is the one used. */
@Named("counting")
@ApplicationScoped
public class CountingStore extends DelegatingStore {

    private final AtomicInteger claims = new AtomicInteger();

    public CountingStore() {
        super(new MemoryIdempotencyStore());
    }

    /** How many claims reached this store. */
    public int claims() {
        return claims.get();
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        claims.incrementAndGet();
        return super.claim(key, owner, fingerprint, lease);
    }
}
