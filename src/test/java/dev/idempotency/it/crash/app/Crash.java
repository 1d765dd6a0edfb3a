package dev.idempotency.it.crash.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a request asks the server to stop and wait to be killed: the {@code X-Crash} header names the
 * point, and the server writes a marker file {@code <order>.<point>} into the directory of system
 * property {@value #MARKERS} when it gets there, then sleeps until the test kills it with {@code kill -9}.
 */
public final class Crash {

    /** The system property naming the marker directory. */
    public static final String MARKERS = "crash.markers";

    /** After the business INSERT, before the transaction commits. */
    public static final String BEFORE_COMMIT = "before-commit";

    /** After the business row and the record committed, before the response's first byte is sent. */
    public static final String AFTER_COMMIT = "after-commit";

    private Crash() {}

    /** Writes the marker and waits (at most 5 minutes) for the kill. */
    public static void here(String orderId, String point) {
        try {
            Files.writeString(Path.of(System.getProperty(MARKERS)).resolve(orderId + "." + point), point);
            Thread.sleep(300_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("not killed at " + point + " within 5 minutes");
    }
}
