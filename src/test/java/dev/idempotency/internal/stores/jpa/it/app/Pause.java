package dev.idempotency.internal.stores.jpa.it.app;

/** Sleeps, so that racing callers overlap the running one. */
final class Pause {

    private Pause() {}

    static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
