package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** Results and kept exceptions of the shapes users return, each counting its runs. */
@ApplicationScoped
public class Replays {

    /** A result as a record. */
    public record Receipt(String id, BigDecimal amount, List<OrderLine> lines) {}

    /** A result as a bean with a no-argument constructor and setters. */
    public static class Bill {
        private String id;
        private long cents;

        public Bill() {}

        Bill(String id, long cents) {
            this.id = id;
            this.cents = cents;
        }

        public String getId() {
            return id;
        }

        public void setId(String id) {
            this.id = id;
        }

        public long getCents() {
            return cents;
        }

        public void setCents(long cents) {
            this.cents = cents;
        }
    }

    /** Keeps the provider's code; its message is fixed, so its (String) constructor takes the code. */
    public static class CardDeclined extends Exception {
        private final String code;

        public CardDeclined(String code) {
            super("card declined");
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final AtomicInteger runs = new AtomicInteger();

    /** How many times a guarded method of this bean ran. */
    public int runs() {
        return runs.get();
    }

    @Idempotent
    public Receipt receipt(@IdempotencyKey String id) {
        runs.incrementAndGet();
        return new Receipt(id, new BigDecimal("10.50"), List.of(new OrderLine("a", runs.get(), "1.10")));
    }

    @Idempotent
    public Bill bill(@IdempotencyKey String id) {
        return new Bill(id, runs.incrementAndGet());
    }

    @Idempotent
    public List<OrderLine> lines(@IdempotencyKey String id) {
        return List.of(new OrderLine(id, runs.incrementAndGet(), "2"));
    }

    @Idempotent
    public Map<String, OrderLine> byId(@IdempotencyKey String id) {
        return Map.of(id, new OrderLine(id, runs.incrementAndGet(), "3"));
    }

    @Idempotent
    public Optional<OrderLine> maybe(@IdempotencyKey String id) {
        return Optional.of(new OrderLine(id, runs.incrementAndGet(), "4"));
    }

    @Idempotent
    public CompletionStage<OrderLine> later(@IdempotencyKey String id) {
        return CompletableFuture.completedFuture(new OrderLine(id, runs.incrementAndGet(), "5"));
    }

    @Idempotent
    public int decline(@IdempotencyKey String ref) throws CardDeclined {
        throw new CardDeclined("05-" + ref + "-" + runs.incrementAndGet());
    }
}
