package dev.idempotency.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Invalid use: an asynchronous guarded method must fail the deployment. */
@ApplicationScoped
public class AsyncService {

    @Idempotent
    public CompletionStage<String> later(@IdempotencyKey String id) {
        return CompletableFuture.completedFuture(id);
    }
}
