package dev.idempotency.internal.core;

import dev.idempotency.InProgressPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * The merged settings of one guarded operation (annotation and config), computed once per method.
 *
 * @param name the operation name that namespaces its keys
 * @param ttl how long a completed outcome is kept
 * @param lease how long an in-progress claim is honoured
 * @param onInProgress what a concurrent repeat does
 * @param exceptions which exceptions are kept and which release the key
 * @param required whether a call without a key fails
 */
public record OperationPolicy(
        String name,
        Duration ttl,
        Duration lease,
        InProgressPolicy onInProgress,
        ExceptionPolicy exceptions,
        boolean required) {

    /** Checks the fields. */
    public OperationPolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(onInProgress, "onInProgress");
        Objects.requireNonNull(exceptions, "exceptions");
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
    }
}
