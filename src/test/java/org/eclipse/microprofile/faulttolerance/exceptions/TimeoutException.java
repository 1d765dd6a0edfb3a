package org.eclipse.microprofile.faulttolerance.exceptions;

/**
 * Stands in for MicroProfile Fault Tolerance's timeout (the API is not on the test class path): the
 * guard recognises it by its fully qualified name, so this class under the same name is what a
 * {@code @Timeout} throws, as far as the guard can tell.
 */
public class TimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message the message */
    public TimeoutException(String message) {
        super(message);
    }
}
