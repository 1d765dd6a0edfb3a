package dev.idempotency.spi;

import java.util.Objects;

/**
 * What {@link IdempotencyStore#claim} did.
 *
 * @param claimed true when this call now owns the key (the record is the new claim); false when a
 *     live record was already there (the record is that existing record, unchanged)
 * @param record the new claim, or the live record that prevented it
 * @param replaced when claimed: the record that was there but no longer live and that the claim
 *     replaced (an IN_PROGRESS record whose lease ended, or a COMPLETED one whose retention ended but
 *     that was not purged yet), or {@code null} when the key held no record or the store cannot tell;
 *     always {@code null} when not claimed. It tells takeovers after an ended lease apart (metrics).
 */
public record ClaimResult(boolean claimed, IdempotencyRecord record, IdempotencyRecord replaced) {

    /** Checks that a record is present, and that only a claim replaced one. */
    public ClaimResult {
        Objects.requireNonNull(record, "record");
        if (!claimed && replaced != null) {
            throw new IllegalArgumentException("a claim that did not win replaced nothing");
        }
    }

    /** A result that does not say what a claim replaced. */
    public ClaimResult(boolean claimed, IdempotencyRecord record) {
        this(claimed, record, null);
    }

    /** This call now owns the key, which held no record (or the store cannot tell what it replaced). */
    public static ClaimResult claimed(IdempotencyRecord claim) {
        return new ClaimResult(true, claim, null);
    }

    /**
     * This call now owns the key, and its claim replaced a record that was no longer live.
     *
     * @param replaced that record, or {@code null} when the key held none
     */
    public static ClaimResult claimed(IdempotencyRecord claim, IdempotencyRecord replaced) {
        return new ClaimResult(true, claim, replaced);
    }

    /** A live record was already there. */
    public static ClaimResult existing(IdempotencyRecord existing) {
        return new ClaimResult(false, existing, null);
    }
}
