package dev.idempotency.internal.cdi;

import dev.idempotency.internal.core.ResultFuture;
import jakarta.enterprise.concurrent.Asynchronous;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

/**
 * {@link ResultFuture} over Jakarta Concurrency's {@link Asynchronous.Result}, the thread's future of an
 * {@code @Asynchronous} method. Loaded only where the Concurrency API is ({@link IdempotencyRuntime}):
 * it names its types.
 */
final class ConcurrencyResultFuture implements ResultFuture {

    @Override
    public boolean completedBy(Method method) {
        // The container's interceptor reads the method's annotation; only its own body holds the future, not
        // a guarded method it calls on the same thread.
        return method.isAnnotationPresent(Asynchronous.class);
    }

    @Override
    public CompletableFuture<Object> swap(CompletableFuture<Object> own) {
        CompletableFuture<Object> callers;
        try {
            callers = Asynchronous.Result.getFuture();
        } catch (IllegalStateException notAsynchronous) {
            return null; // not the body of an @Asynchronous method
        }
        Asynchronous.Result.setFuture(own);
        return callers;
    }

    @Override
    public void restore(CompletableFuture<Object> callers) {
        Asynchronous.Result.setFuture(callers);
    }
}
