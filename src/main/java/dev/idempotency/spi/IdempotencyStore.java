package dev.idempotency.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The atomic primitives the engine needs from a store. Every method is atomic per key with respect
 * to every other method, on every node that shares the store. Stores keep no logic of their own: the
 * decisions (is a record live? may it be taken over? who owns it?) are {@code
 * dev.idempotency.spi.RecordLifecycle}'s, evaluated against the store's clock.
 *
 * <p>A record is <em>live</em> while its {@code expiresAt} is after the store's now. A key whose
 * record is absent or not live is free: it can be claimed, and reads treat it as absent.
 *
 * <p>Backend failures are thrown as {@link dev.idempotency.IdempotencyStoreUnavailableException}.
 *
 * <p>Every store passes the contract suite {@code IdempotencyStoreContract} in the test sources.
 */
public interface IdempotencyStore {

    /**
     * Claims the key for {@code owner} if it is free; otherwise leaves the live record untouched.
     *
     * @param key the namespaced key
     * @param owner a token unique to this attempt
     * @param fingerprint the fingerprint to store with the claim
     * @param lease how long the claim is honoured; the claim's {@code expiresAt} is now + lease
     * @return the new claim, or the live record that prevented it
     */
    ClaimResult claim(String key, String owner, String fingerprint, Duration lease);

    /**
     * {@link #claim(String, String, String, Duration)} for a guarded operation: what the engine calls.
     * The default refuses a joined call and claims as above; a store with per-operation limits or the
     * joined mode overrides it (and then the method above is this one with {@link GuardedOperation#NONE}).
     */
    default ClaimResult claim(
            GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        refuseJoined(operation);
        return claim(key, owner, fingerprint, lease);
    }

    /**
     * Reads the live record for a key.
     *
     * @return the record, or empty when the key is free
     */
    Optional<IdempotencyRecord> read(String key);

    /**
     * Turns the owner's IN_PROGRESS claim into a COMPLETED record with the outcome, kept for {@code
     * ttl} from now. Fenced by the owner token alone: it succeeds even after the lease ended, as long
     * as no other owner took the key over (and the store still holds the claim).
     *
     * @return true if the record was the owner's claim and is now COMPLETED; false otherwise
     *     (nothing was changed)
     */
    boolean complete(String key, String owner, byte[] outcome, Duration ttl);

    /**
     * {@link #complete(String, String, byte[], Duration)} for a guarded operation. In the joined mode
     * the record is written in the caller's transaction, and becomes COMPLETED when it commits.
     *
     * @throws CallerTransactionRollingBackException joined, and the caller's transaction is marked for
     *     rollback or rolling back: nothing was written, and the claim ends with the rollback
     */
    default boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
        refuseJoined(operation);
        return complete(key, owner, outcome, ttl);
    }

    /**
     * Deletes the owner's IN_PROGRESS claim, so that the next call runs again. Fenced by the owner
     * token like {@link #complete}.
     *
     * @return true if the claim was the owner's and is gone; false otherwise (nothing was changed)
     */
    boolean release(String key, String owner);

    /** {@link #release(String, String)} for a guarded operation. */
    default boolean release(GuardedOperation operation, String key, String owner) {
        refuseJoined(operation);
        return release(key, owner);
    }

    /**
     * Extends the owner's IN_PROGRESS claim: its {@code expiresAt} becomes the store's now + {@code
     * lease} (never earlier than it was), so that a call still running is not taken over. Fenced by
     * the owner token like {@link #complete}: a claim that was taken over, completed or released is
     * left alone. The decision is {@code RecordLifecycle.renew}. The engine renews a running call's
     * claim every third of its lease (the keep-alive), so that the lease bounds how long a crashed
     * caller's key stays blocked, not how long a call may run.
     *
     * <p>The default throws {@link UnsupportedOperationException}: a store written before this method
     * existed cannot keep claims alive, and the engine then lets calls run on their lease alone.
     *
     * @param key the namespaced key
     * @param owner the token of the claim to extend
     * @param lease the new lease, counted from the store's now
     * @return true if the record was the owner's claim and its lease now ends at now + lease; false
     *     otherwise (nothing was changed)
     * @throws UnsupportedOperationException the store does not implement it
     */
    default boolean renew(String key, String owner, Duration lease) {
        throw new UnsupportedOperationException(getClass().getName()
                + " does not implement IdempotencyStore.renew, so the claims of running calls are not kept"
                + " alive: a call that runs longer than its lease can be taken over by a duplicate.");
    }

    /**
     * Deletes the COMPLETED record made by {@code owner}'s claim, so that the next call with the key
     * runs again: an operator's repair (for example after the stored outcome turned out wrong).
     * Fenced like {@link #release}: owner tokens are unique per call, so the key, the owner and the
     * COMPLETED status name exactly one record; a record that was replaced meanwhile is left alone.
     * The decision is {@code RecordLifecycle.isCompletedBy}.
     *
     * <p>The default throws {@link UnsupportedOperationException}: a store written before this method
     * existed cannot delete records on an operator's request, and says so.
     *
     * @return true if that record was there and is gone; false otherwise (nothing was changed)
     * @throws UnsupportedOperationException the store does not implement it
     */
    default boolean deleteCompleted(String key, String owner) {
        throw new UnsupportedOperationException(getClass().getName()
                + " does not implement IdempotencyStore.deleteCompleted, so completed records cannot be"
                + " deleted on request; they expire after their ttl.");
    }

    /**
     * Deletes up to {@code max} records that are no longer live. Never deletes a live record, even if
     * it became live again between finding and deleting.
     *
     * @return how many records were deleted
     */
    int purgeExpired(int max);

    /**
     * Asks the store to tell {@code listener} the key of each record that a call on any node completed
     * or released, as soon as it learns of it, so that duplicates waiting for that call ({@code
     * onInProgress = WAIT}) look at the store at once instead of polling it. A notice may come late or
     * not at all (waiters still look at the store now and then), and a notice for a key that was not
     * settled is harmless: it costs the key's waiters one look. The listener is quick and never throws.
     *
     * <p>The default sends nothing and returns {@code false}: waiters for calls of other nodes poll.
     * Settlements made through this engine on this node wake their waiters in any case.
     *
     * @param listener receives the keys of settled records, on any thread
     * @return whether the store will send notices
     */
    default boolean notifySettlements(java.util.function.Consumer<String> listener) {
        return false;
    }

    /**
     * Whether this store can write a guarded operation's records in the caller's JTA transaction
     * ({@link dev.idempotency.Participation#JOINED}): then a call in that mode completes its record inside
     * the transaction (before commit), and a rollback undoes the claim by itself. The engine refuses,
     * at deployment, an operation in the joined mode on a store that answers false (the default).
     * A store that starts lazily starts here, and a configuration it cannot work with throws.
     */
    default boolean canJoinCallerTransaction() {
        return false;
    }

    /** What the defaults of the per-operation primitives do with a joined call: refuse it. */
    private void refuseJoined(GuardedOperation operation) {
        if (operation.joined()) {
            throw new dev.idempotency.IdempotencyConfigurationException("Operation '" + operation.name()
                    + "' joins the caller's transaction (transaction = JOINED), which "
                    + getClass().getName()
                    + " cannot do; set its transaction to SEPARATE or use a store that can join (JPA, Infinispan"
                    + " cluster).");
        }
    }
}
