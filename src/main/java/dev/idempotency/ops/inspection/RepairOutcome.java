package dev.idempotency.ops.inspection;

/** What a repair did. */
public enum RepairOutcome {
    /** The record was released or deleted; the next call with the key runs again. */
    DONE,
    /** No live record has the key (never claimed, released, expired, or a lease that already ended). */
    NOT_FOUND,
    /** The record is not in the state the repair needs (releasing a COMPLETED record, deleting an IN_PROGRESS one). */
    WRONG_STATE,
    /** The record changed between the read and the repair (completed or taken over); nothing was changed. */
    CHANGED,
    /** The store does not support this repair. */
    UNSUPPORTED
}
