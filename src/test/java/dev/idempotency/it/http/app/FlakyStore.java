package dev.idempotency.it.http.app;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.time.Duration;
import java.util.Optional;

/** The memory store, with a switch that makes every call fail as an unreachable backend would. */
@Named("flaky")
@ApplicationScoped
public class FlakyStore implements IdempotencyStore {

    private final MemoryIdempotencyStore delegate = new MemoryIdempotencyStore();
    private volatile boolean failing;

    /** Makes every call fail (true) or work (false). */
    public void failing(boolean failing) {
        this.failing = failing;
    }

    private void check() {
        if (failing) {
            throw new IdempotencyStoreUnavailableException(null, null, "test store switched off", null);
        }
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        check();
        return delegate.claim(key, owner, fingerprint, lease);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        check();
        return delegate.read(key);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        check();
        return delegate.complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        check();
        return delegate.release(key, owner);
    }

    @Override
    public boolean renew(String key, String owner, java.time.Duration lease) {
        check();
        return delegate.renew(key, owner, lease);
    }

    @Override
    public int purgeExpired(int max) {
        return failing ? 0 : delegate.purgeExpired(max);
    }
}
