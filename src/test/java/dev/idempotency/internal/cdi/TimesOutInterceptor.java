package dev.idempotency.internal.cdi;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * What Fault Tolerance's {@code @Timeout} does around a method body, at its priority ({@code
 * PLATFORM_AFTER + 10}): the caller gets Fault Tolerance's {@code TimeoutException} after {@link
 * #TIMEOUT_MILLIS}, while (or after) the body runs on. See {@link TimesOut#waits()}.
 */
@TimesOut(waits = true)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER + 10)
public class TimesOutInterceptor {

    static final long TIMEOUT_MILLIS = 100;

    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "times-out");
        t.setDaemon(true);
        return t;
    });

    @AroundInvoke
    public Object timeout(InvocationContext ic) throws Exception {
        if (ic.getMethod().getAnnotation(TimesOut.class).waits()) {
            long started = System.nanoTime();
            Object result = ic.proceed();
            if (System.nanoTime() - started > TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS)) {
                throw new TimeoutException("timed out after " + TIMEOUT_MILLIS + " ms");
            }
            return result;
        }
        CompletableFuture<Object> out = new CompletableFuture<>();
        POOL.execute(() -> {
            try {
                ((CompletionStage<?>) ic.proceed()).whenComplete((value, failure) -> {
                    if (failure == null) {
                        out.complete(value);
                    } else {
                        out.completeExceptionally(failure);
                    }
                });
            } catch (Exception e) {
                out.completeExceptionally(e);
            }
        });
        CompletableFuture.delayedExecutor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .execute(() ->
                        out.completeExceptionally(new TimeoutException("timed out after " + TIMEOUT_MILLIS + " ms")));
        return out;
    }
}
