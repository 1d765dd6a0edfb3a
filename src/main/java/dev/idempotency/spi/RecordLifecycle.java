package dev.idempotency.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * The one record state machine, shared by every store and every entry point.
 *
 * <pre>
 *   free (absent or not live) --claim--> IN_PROGRESS(owner, expiresAt = now + lease, fingerprint)
 *   IN_PROGRESS --renew by owner-----> IN_PROGRESS(expiresAt = now + lease), the keep-alive
 *   IN_PROGRESS --complete by owner--> COMPLETED(outcome, expiresAt = now + ttl)
 *   IN_PROGRESS --release by owner---> free
 *   IN_PROGRESS, lease ended --------> free (the next claim takes it over with a new owner)
 *   COMPLETED, retention ended ------> free
 *   COMPLETED --deleted by operator--> free (fenced by the owner of the claim that made it)
 * </pre>
 *
 * <p>An operator frees a stuck IN_PROGRESS claim with the owner's own release, using the owner token
 * read from the record: the same fence, so a claim that changed meanwhile is left alone.
 *
 * <p>Stores call these functions inside their atomic primitive (a compare-and-set, a conditional
 * write, a row lock) with their own clock's now, so that the rules are written once.
 */
public final class RecordLifecycle {

    private RecordLifecycle() {}

    /** Whether the record holds its key at {@code now}; a record that is not live counts as absent. */
    public static boolean isLive(IdempotencyRecord record, Instant now) {
        return record != null && record.expiresAt().isAfter(now);
    }

    /** Whether a claim may replace {@code existing}: it is absent, or its lease or retention ended. */
    public static boolean isClaimable(IdempotencyRecord existing, Instant now) {
        return !isLive(existing, now);
    }

    /** The new IN_PROGRESS record of a claim, created at {@code now}. */
    public static IdempotencyRecord newClaim(
            String key, String owner, String fingerprint, Instant now, Duration lease) {
        return new IdempotencyRecord(key, RecordStatus.IN_PROGRESS, owner, fingerprint, now.plus(lease), null, now);
    }

    /**
     * Whether a claim that replaced {@code replaced} took over a call that was still registered as
     * running: an IN_PROGRESS record whose lease had ended (its caller crashed or overran). A
     * replaced COMPLETED record is an ordinary new execution after its retention.
     */
    public static boolean isTakeover(IdempotencyRecord replaced) {
        return replaced != null && replaced.status() == RecordStatus.IN_PROGRESS;
    }

    /**
     * Whether {@code record} is the COMPLETED record made by {@code owner}'s claim, the one an
     * operator's delete names. Not time-bound, like {@link #isOwnedBy}.
     */
    public static boolean isCompletedBy(IdempotencyRecord record, String owner) {
        return record != null
                && record.status() == RecordStatus.COMPLETED
                && record.owner().equals(owner);
    }

    /**
     * Whether {@code owner} may complete or release {@code record}: it is an IN_PROGRESS claim made by
     * that owner. Deliberately not time-bound: an owner that ran past its lease may still record its
     * outcome as long as nobody took the key over, which avoids a second run.
     */
    public static boolean isOwnedBy(IdempotencyRecord record, String owner) {
        return record != null
                && record.status() == RecordStatus.IN_PROGRESS
                && record.owner().equals(owner);
    }

    /**
     * The owner's claim with its lease extended to {@code now + lease}; never earlier than it ended
     * already (a store clock that stepped back does not shorten a claim). Callers check {@link
     * #isOwnedBy} first: like completion, renewal is fenced by the owner token alone, not by time.
     */
    public static IdempotencyRecord renew(IdempotencyRecord claim, Instant now, Duration lease) {
        if (claim.status() != RecordStatus.IN_PROGRESS) {
            throw new IllegalStateException("only an IN_PROGRESS claim can be renewed: " + claim);
        }
        Instant until = now.plus(lease);
        if (!until.isAfter(claim.expiresAt())) {
            return claim;
        }
        return new IdempotencyRecord(
                claim.key(),
                RecordStatus.IN_PROGRESS,
                claim.owner(),
                claim.fingerprint(),
                until,
                null,
                claim.createdAt());
    }

    /** The COMPLETED record that replaces the owner's claim. */
    public static IdempotencyRecord complete(IdempotencyRecord claim, byte[] outcome, Instant now, Duration ttl) {
        if (claim.status() != RecordStatus.IN_PROGRESS) {
            throw new IllegalStateException("only an IN_PROGRESS claim can be completed: " + claim);
        }
        return new IdempotencyRecord(
                claim.key(),
                RecordStatus.COMPLETED,
                claim.owner(),
                claim.fingerprint(),
                now.plus(ttl),
                outcome,
                claim.createdAt());
    }

    /** How long until a live record stops being live (zero if it is not live). */
    public static Duration remaining(IdempotencyRecord record, Instant now) {
        Duration d = Duration.between(now, record.expiresAt());
        return d.isNegative() ? Duration.ZERO : d;
    }
}
