package dev.idempotency.spi;

/** The two stored states of a record. A released key has no record at all. */
public enum RecordStatus {
    /** Claimed by an owner whose call is running; {@code expiresAt} is the end of its lease. */
    IN_PROGRESS,
    /** The call finished and its outcome is stored; {@code expiresAt} is the end of retention. */
    COMPLETED
}
