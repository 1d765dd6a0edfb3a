package dev.idempotency.internal.cdi;

/** A checked failure that a releaseOn rule turns into a release. */
public class TransientFailure extends Exception {
    public TransientFailure(String message) {
        super(message);
    }
}
