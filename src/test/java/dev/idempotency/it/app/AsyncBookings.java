package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.concurrent.Asynchronous;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;

/**
 * A Jakarta Concurrency {@code @Asynchronous} method, guarded: the container runs it on its managed
 * executor and hands the caller the future the body completes with {@code Asynchronous.Result}; the
 * guard stores the outcome {@link SlowReturnInterceptor#MILLIS} after that, as after a commit.
 */
@ApplicationScoped
public class AsyncBookings {

    @Inject
    ExecutionCounter counter;

    /** Counts its run and completes the caller's future from inside the body. */
    @Asynchronous
    @SlowReturn
    @Idempotent(name = "it.async.book")
    public CompletableFuture<String> book(@IdempotencyKey String id) {
        return Asynchronous.Result.complete("booked " + id + " #" + counter.ran("async:" + id));
    }

    /** How many times {@code id} ran. */
    public int runs(String id) {
        return counter.count("async:" + id);
    }
}
