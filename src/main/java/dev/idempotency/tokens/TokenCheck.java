package dev.idempotency.tokens;

/**
 * What {@link OneTimeTokens#consume} decided. Exactly one consumer of a token ever gets {@link
 * #CONSUMED}; every other outcome names why the token was refused.
 */
public enum TokenCheck {
    /** This call consumed the token: the guarded action may run. */
    CONSUMED,
    /** No token was sent. */
    MISSING,
    /** The text is not a token this module issued, or its record is gone (never issued, or purged). */
    UNKNOWN,
    /** The token was already consumed. */
    USED,
    /** The token's lifetime ended before it was consumed. */
    EXPIRED,
    /** The token was issued to another owner. */
    FOREIGN;

    /** Whether the guarded action may run. */
    public boolean accepted() {
        return this == CONSUMED;
    }
}
