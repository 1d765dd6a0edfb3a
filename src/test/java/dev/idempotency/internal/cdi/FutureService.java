package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/** Invalid use: a Future's outcome cannot be observed without blocking, so it fails the deployment. */
@ApplicationScoped
public class FutureService {

    @Idempotent
    public Future<String> later(@IdempotencyKey String id) {
        FutureTask<String> task = new FutureTask<>(() -> id);
        task.run();
        return task;
    }
}
