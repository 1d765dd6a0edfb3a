package dev.idempotency.internal.core;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

/**
 * The future a container's asynchronous method completes itself instead of returning a new one:
 * Jakarta Concurrency's {@code Asynchronous.Result}, whose future is the very object the caller holds.
 * Its interceptor runs outside the guard, so a body's {@code Asynchronous.Result.complete(value)}
 * would complete the caller's future before the guard stored the outcome; the guard therefore puts
 * its own future in place for the body, and completes the caller's once the outcome is stored.
 */
public interface ResultFuture {

    /** No such container here: the body completes nothing but the stage it returns. */
    ResultFuture NONE = new ResultFuture() {
        @Override
        public boolean completedBy(Method method) {
            return false;
        }

        @Override
        public CompletableFuture<Object> swap(CompletableFuture<Object> own) {
            return null;
        }

        @Override
        public void restore(CompletableFuture<Object> callers) {}
    };

    /** Whether the method is one whose body completes the container's future (it is asynchronous there). */
    boolean completedBy(Method method);

    /**
     * Puts {@code own} in place of the caller's future on this thread, for the body.
     *
     * @return the caller's future; {@code null} when this call has none (nothing was replaced)
     */
    CompletableFuture<Object> swap(CompletableFuture<Object> own);

    /** Puts the caller's future back, as {@link #swap} found it. */
    void restore(CompletableFuture<Object> callers);
}
