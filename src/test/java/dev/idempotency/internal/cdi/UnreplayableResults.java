package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Invalid use: results that JSON-B writes but cannot read back, so every repeat would fail. */
public final class UnreplayableResults {

    private UnreplayableResults() {}

    /** Getters and an all-arguments constructor only. */
    public static class Quote {
        private final String id;

        public Quote(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    @ApplicationScoped
    public static class AllArgsService {
        @Idempotent
        public Quote quote(@IdempotencyKey String id) {
            return new Quote(id);
        }
    }

    @ApplicationScoped
    public static class ObjectService {
        @Idempotent
        public Object anything(@IdempotencyKey String id) {
            return id;
        }
    }

    @ApplicationScoped
    public static class InterfaceService {
        @Idempotent
        public Serializable serializable(@IdempotencyKey String id) {
            return id;
        }
    }

    @ApplicationScoped
    public static class StageService {
        @Idempotent
        public CompletionStage<Quote> later(@IdempotencyKey String id) {
            return CompletableFuture.completedFuture(new Quote(id));
        }
    }
}
