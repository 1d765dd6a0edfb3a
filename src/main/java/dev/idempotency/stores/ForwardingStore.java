package dev.idempotency.stores;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A store that hands every call to another: the base of a store's view for one operation ({@link
 * IdempotencyStore#forOperation}), which overrides only the calls the operation changes.
 */
public abstract class ForwardingStore implements IdempotencyStore {

    private final IdempotencyStore store;

    /** @param store the store every call not overridden goes to */
    protected ForwardingStore(IdempotencyStore store) {
        this.store = store;
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return store.claim(key, owner, fingerprint, lease);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        return store.read(key);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return store.complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        return store.release(key, owner);
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        return store.renew(key, owner, lease);
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return store.deleteCompleted(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return store.purgeExpired(max);
    }

    @Override
    public IdempotencyStore forOperation(String operation) {
        return store.forOperation(operation);
    }

    @Override
    public void checkOperations(Set<String> operations) {
        store.checkOperations(operations);
    }

    @Override
    public boolean joinsCallerTransaction(String operation) {
        return store.joinsCallerTransaction(operation);
    }
}
