package dev.idempotency.spi;

import java.util.Objects;

/**
 * What {@link IdempotencyStore#claim} did.
 *
 * @param claimed true when this call now owns the key (the record is the new claim); false when a
 *     live record was already there (the record is that existing record, unchanged)
 * @param record the new claim, or the live record that prevented it
 */
public record ClaimResult(boolean claimed, IdempotencyRecord record) {

    /** Checks that a record is present. */
    public ClaimResult {
        Objects.requireNonNull(record, "record");
    }

    /** This call now owns the key. */
    public static ClaimResult claimed(IdempotencyRecord claim) {
        return new ClaimResult(true, claim);
    }

    /** A live record was already there. */
    public static ClaimResult existing(IdempotencyRecord existing) {
        return new ClaimResult(false, existing);
    }
}
