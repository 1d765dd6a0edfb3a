package dev.idempotency.spi;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One stored record: what a store keeps per namespaced key. Stores persist all fields as they are
 * and never interpret them; the transitions are made by {@code dev.idempotency.spi.RecordLifecycle}.
 *
 * @param key the namespaced key (64 hex characters, a SHA-256 of operation, scope and client key)
 * @param status IN_PROGRESS or COMPLETED
 * @param owner the owner token of the claim that made the record; fences complete and release
 * @param fingerprint SHA-256 (hex) of the arguments or request that claimed the key
 * @param expiresAt when the record stops being live: the lease end while IN_PROGRESS, the end of
 *     retention once COMPLETED
 * @param outcome the stored outcome (opaque bytes made by the entry point), {@code null} while
 *     IN_PROGRESS
 * @param createdAt when the claim that made the record was made (a takeover makes a new claim); kept
 *     when the claim is completed. {@code null} when unknown: a record written by a store or a version
 *     that does not keep it. Stores persist it like every other field, for inspection.
 */
public record IdempotencyRecord(
        String key,
        RecordStatus status,
        String owner,
        String fingerprint,
        Instant expiresAt,
        byte[] outcome,
        Instant createdAt) {

    /** Checks the fields that every record must have. */
    public IdempotencyRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (status == RecordStatus.COMPLETED) {
            Objects.requireNonNull(outcome, "outcome of a COMPLETED record");
        }
    }

    /** A record whose creation time is unknown. */
    public IdempotencyRecord(
            String key, RecordStatus status, String owner, String fingerprint, Instant expiresAt, byte[] outcome) {
        this(key, status, owner, fingerprint, expiresAt, outcome, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdempotencyRecord r
                && key.equals(r.key)
                && status == r.status
                && owner.equals(r.owner)
                && fingerprint.equals(r.fingerprint)
                && expiresAt.equals(r.expiresAt)
                && Arrays.equals(outcome, r.outcome)
                && Objects.equals(createdAt, r.createdAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, status, owner, fingerprint, expiresAt, createdAt) * 31 + Arrays.hashCode(outcome);
    }

    @Override
    public String toString() {
        // Never the outcome: it may hold a response body or personal data.
        return "IdempotencyRecord[key=" + key + ", status=" + status + ", owner=" + owner + ", createdAt=" + createdAt
                + ", expiresAt=" + expiresAt + ", outcome=" + (outcome == null ? "none" : outcome.length + " bytes")
                + "]";
    }
}
