package dev.idempotency.internal.core;

/** The store primitives whose latency the engine and the inspector measure. */
public enum StorePrimitive {
    /** {@code IdempotencyStore.claim}. */
    CLAIM,
    /** {@code IdempotencyStore.read}. */
    READ,
    /** {@code IdempotencyStore.complete}. */
    COMPLETE,
    /** {@code IdempotencyStore.release}. */
    RELEASE,
    /** {@code IdempotencyStore.deleteCompleted}. */
    DELETE,
    /** {@code IdempotencyStore.renew}, by the keep-alive. */
    RENEW;

    private final String tag = name().toLowerCase(java.util.Locale.ROOT);

    /** The lower-case name used as a metric tag. */
    public String tag() {
        return tag;
    }
}
