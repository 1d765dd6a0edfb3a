package dev.idempotency.examples.shop;

/**
 * A business refusal of the shop. Checked, so the idempotency guard <em>keeps</em> it: a repeat of the
 * same call is refused the same way without running again. Subclasses need a public {@code (String)}
 * constructor so that a replay can rebuild them.
 */
public abstract class ShopException extends Exception {

    /**
     * A refusal with a message for the caller.
     *
     * @param message what was refused and why; never a secret
     */
    protected ShopException(String message) {
        super(message);
    }

    /**
     * The HTTP status this refusal maps to.
     *
     * @return a 4xx status
     */
    public abstract int status();

    /**
     * A short title for the problem document.
     *
     * @return the title
     */
    public abstract String title();
}
