package dev.idempotency.spi;

import dev.idempotency.Participation;
import java.util.Objects;

/**
 * The guarded operation a store call serves, passed to {@link IdempotencyStore#claim(GuardedOperation,
 * String, String, String, java.time.Duration) claim}, {@link IdempotencyStore#complete(GuardedOperation,
 * String, String, byte[], java.time.Duration) complete} and {@link IdempotencyStore#release(GuardedOperation,
 * String, String) release}: its name (for a store's per-operation limits and messages) and whether the
 * call writes in the caller's transaction.
 *
 * @param name the operation name; empty for calls that serve no operation ({@link #NONE})
 * @param transaction {@link Participation#JOINED} only where {@link IdempotencyStore#canJoinCallerTransaction()}
 */
public record GuardedOperation(String name, Participation transaction) {

    /** Calls that serve no guarded operation (message attempts, one-time tokens, cluster locks). */
    public static final GuardedOperation NONE = new GuardedOperation("", Participation.SEPARATE);

    /** Checks the fields. */
    public GuardedOperation {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transaction, "transaction");
    }

    /** Whether the call writes in the caller's transaction. */
    public boolean joined() {
        return transaction == Participation.JOINED;
    }
}
