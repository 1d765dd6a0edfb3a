package dev.idempotency.internal.cdi;

import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.DelegatingStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A user's own store, selected by its CDI name; counts claims to prove it is the one used. */
@Named("counting")
@ApplicationScoped
public class CountingStore extends DelegatingStore {

    private final AtomicInteger claims = new AtomicInteger();
    private final AtomicInteger purges = new AtomicInteger();

    private final MemoryIdempotencyStore memory;

    public CountingStore() {
        this(new MemoryIdempotencyStore());
    }

    private CountingStore(MemoryIdempotencyStore memory) {
        super(memory);
        this.memory = memory;
    }

    /** Records physically held, expired or not: only the purge removes expired ones. */
    public int held() {
        return memory.size();
    }

    /** How many claims reached this store. */
    public int claims() {
        return claims.get();
    }

    /** How many purge batches reached this store. */
    public int purges() {
        return purges.get();
    }

    @Override
    public int purgeExpired(int max) {
        purges.incrementAndGet();
        return super.purgeExpired(max);
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        claims.incrementAndGet();
        return super.claim(key, owner, fingerprint, lease);
    }
}
