package dev.idempotency.spi;

import dev.idempotency.Participation;
import java.time.Duration;

/**
 * For tests that drive a store as the engine does for one guarded operation: its plain {@code claim},
 * {@code complete} and {@code release} are the store's calls for that operation.
 */
public final class BoundStore extends DelegatingStore {

    private final GuardedOperation operation;

    private BoundStore(IdempotencyStore delegate, GuardedOperation operation) {
        super(delegate);
        this.operation = operation;
    }

    /** {@code store}'s calls for operation {@code name} in the {@code transaction} mode. */
    public static IdempotencyStore of(IdempotencyStore store, String name, Participation transaction) {
        return new BoundStore(store, new GuardedOperation(name, transaction));
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return delegate().claim(operation, key, owner, fingerprint, lease);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return delegate().complete(operation, key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        return delegate().release(operation, key, owner);
    }
}
