package dev.idempotency.it.matrix.app;

/**
 * A business refusal that does not roll back ({@code dontRollbackOn}): the work before it commits, and
 * {@link DeclinedMapper} answers 402, a kept status.
 */
public class Declined extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param id the charge declined */
    public Declined(String id) {
        super("declined " + id);
    }
}
