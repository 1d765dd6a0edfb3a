package dev.idempotency.spi;

import java.time.Duration;

/**
 * A store that says it writes in the caller's transaction ({@link #canJoinCallerTransaction}) and
 * takes the engine's joined calls through its plain primitives (whose records stay where the delegate
 * keeps them): for the guard's joined-mode rules without a database.
 */
public class JoiningStore extends DelegatingStore {

    /** @param delegate the store that does the work */
    public JoiningStore(IdempotencyStore delegate) {
        super(delegate);
    }

    @Override
    public boolean canJoinCallerTransaction() {
        return true;
    }

    @Override
    public ClaimResult claim(GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        return claim(key, owner, fingerprint, lease);
    }

    @Override
    public boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
        return complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean release(GuardedOperation operation, String key, String owner) {
        return release(key, owner);
    }
}
