package dev.idempotency.internal.core;

import dev.idempotency.InProgressPolicy;
import dev.idempotency.Participation;
import dev.idempotency.spi.GuardedOperation;
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
 * @param transaction whether its records are written in the caller's transaction
 */
public record OperationPolicy(
        String name,
        Duration ttl,
        Duration lease,
        InProgressPolicy onInProgress,
        ExceptionPolicy exceptions,
        boolean required,
        Participation transaction) {

    /** Checks the fields. */
    public OperationPolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transaction, "transaction");
        Objects.requireNonNull(onInProgress, "onInProgress");
        Objects.requireNonNull(exceptions, "exceptions");
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
    }

    /** A policy whose records are written outside the caller's transaction. */
    public OperationPolicy(
            String name,
            Duration ttl,
            Duration lease,
            InProgressPolicy onInProgress,
            ExceptionPolicy exceptions,
            boolean required) {
        this(name, ttl, lease, onInProgress, exceptions, required, Participation.SEPARATE);
    }

    /** This policy under another operation name. */
    public OperationPolicy named(String other) {
        return new OperationPolicy(other, ttl, lease, onInProgress, exceptions, required, transaction);
    }

    /** Whether its records are written in the caller's transaction. */
    public boolean joined() {
        return transaction == Participation.JOINED;
    }

    /** What the store is told about the calls it makes for this operation. */
    public GuardedOperation guarded() {
        return new GuardedOperation(name, transaction);
    }
}
