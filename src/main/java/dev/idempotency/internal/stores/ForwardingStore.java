package dev.idempotency.internal.stores;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A store that hands every call to another, {@link #delegate()}: the base of a store's view for one
 * operation ({@link IdempotencyStore#forOperation}), which overrides only the calls the operation
 * changes.
 */
public abstract class ForwardingStore implements IdempotencyStore {

    /** The store every call not overridden goes to; asked on every call, so it may be bound late. */
    protected abstract IdempotencyStore delegate();

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return delegate().claim(key, owner, fingerprint, lease);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        return delegate().read(key);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return delegate().complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        return delegate().release(key, owner);
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        return delegate().renew(key, owner, lease);
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return delegate().deleteCompleted(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return delegate().purgeExpired(max);
    }

    @Override
    public boolean notifySettlements(java.util.function.Consumer<String> listener) {
        return delegate().notifySettlements(listener);
    }

    @Override
    public IdempotencyStore forOperation(String operation) {
        return delegate().forOperation(operation);
    }

    @Override
    public void checkOperations(Set<String> operations) {
        delegate().checkOperations(operations);
    }

    @Override
    public boolean joinsCallerTransaction(String operation) {
        return delegate().joinsCallerTransaction(operation);
    }
}
