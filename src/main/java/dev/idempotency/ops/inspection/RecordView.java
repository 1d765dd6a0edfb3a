package dev.idempotency.ops.inspection;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.time.Instant;

/**
 * What an operator may see of a live record: never the stored outcome, never the raw key.
 *
 * @param operation the operation name
 * @param keyHash the first 12 hex characters of the store key, as in log lines
 * @param status IN_PROGRESS or COMPLETED
 * @param createdAt when the claim that made the record was made; {@code null} if the store does not
 *     keep it
 * @param leaseEnd when the running call's claim stops being honoured (IN_PROGRESS only, else {@code
 *     null})
 * @param expiresAt when the record stops being live: the lease end while IN_PROGRESS, the end of
 *     retention once COMPLETED
 * @param fingerprint the SHA-256 (hex) of the arguments or request that claimed the key
 * @param storedBytes the size of the stored outcome in bytes (0 while IN_PROGRESS)
 */
public record RecordView(
        String operation,
        String keyHash,
        RecordStatus status,
        Instant createdAt,
        Instant leaseEnd,
        Instant expiresAt,
        String fingerprint,
        int storedBytes) {

    static RecordView of(String operation, IdempotencyRecord r) {
        boolean running = r.status() == RecordStatus.IN_PROGRESS;
        return new RecordView(
                operation,
                r.key().substring(0, Math.min(12, r.key().length())),
                r.status(),
                r.createdAt(),
                running ? r.expiresAt() : null,
                r.expiresAt(),
                r.fingerprint(),
                r.outcome() == null ? 0 : r.outcome().length);
    }
}
