package dev.idempotency.spi;

/**
 * The primitives of {@link IdempotencyStore} that a guarded call or an operator makes: the names a store
 * gives its actions in messages and logs, and the tag of their latency in the metrics.
 */
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
