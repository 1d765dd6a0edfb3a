package dev.idempotency.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * A store that forwards every primitive to another; tests override the ones they observe or change.
 * The engine's per-operation calls reach the overridable primitives through the SPI's defaults (a
 * joined call is refused unless a subclass takes it).
 */
public class DelegatingStore implements IdempotencyStore {

    private final IdempotencyStore delegate;

    /** @param delegate the store that does the work */
    public DelegatingStore(IdempotencyStore delegate) {
        this.delegate = delegate;
    }

    /** The store that does the work. */
    protected IdempotencyStore delegate() {
        return delegate;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
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
    public boolean renew(String key, String owner, java.time.Duration lease) {
        return delegate.renew(key, owner, lease);
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return delegate.deleteCompleted(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return delegate.purgeExpired(max);
    }

    @Override
    public boolean canJoinCallerTransaction() {
        return delegate.canJoinCallerTransaction();
    }

    @Override
    public boolean notifySettlements(java.util.function.Consumer<String> listener) {
        return delegate.notifySettlements(listener);
    }
}
