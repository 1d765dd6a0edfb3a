package dev.idempotency.spi;

import dev.idempotency.Participation;
import java.util.Objects;

/**
 * The guarded operation a store call serves, passed to {@link IdempotencyStore#claim(GuardedOperation,
 * String, String, String, java.time.Duration) claim}, {@link IdempotencyStore#complete(GuardedOperation,
 * String, String, byte[], java.time.Duration) complete} and {@link IdempotencyStore#release(GuardedOperation,
 * String, String) release}: its name (for a store's per-operation limits and messages), whether the
 * call writes in the caller's transaction, and on a claim the caller it serves (for per-caller limits).
 *
 * @param name the operation name; empty for calls that serve no operation ({@link #NONE})
 * @param transaction {@link Participation#JOINED} only where {@link IdempotencyStore#canJoinCallerTransaction()}
 * @param caller the caller's scope (an HTTP operation's principal or scope header value, as {@code
 *     principal:<name>} or {@code header:<value>}); empty when the call has no identified caller (an
 *     operation that is not scoped, an anonymous principal, a CDI method). A store may count records per
 *     caller with it; it must not store it or log it
 */
public record GuardedOperation(String name, Participation transaction, String caller) {

    /** Calls that serve no guarded operation (message attempts, one-time tokens, cluster locks). */
    public static final GuardedOperation NONE = new GuardedOperation("", Participation.SEPARATE);

    /** Checks the fields. */
    public GuardedOperation {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transaction, "transaction");
        Objects.requireNonNull(caller, "caller");
    }

    /** An operation's calls without an identified caller. */
    public GuardedOperation(String name, Participation transaction) {
        this(name, transaction, "");
    }

    /** The same operation, serving {@code caller} (empty: no identified caller). */
    public GuardedOperation by(String caller) {
        return caller.equals(this.caller) ? this : new GuardedOperation(name, transaction, caller);
    }

    /** Whether the call writes in the caller's transaction. */
    public boolean joined() {
        return transaction == Participation.JOINED;
    }
}
