package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
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
    public Optional<OrderLine> line(@IdempotencyKey String id, boolean present) {
        OrderLine line = new OrderLine(id, runs.incrementAndGet(), "6");
        return present ? Optional.of(line) : Optional.empty();
    }

    @Idempotent
    public Optional<String> text(@IdempotencyKey String id, boolean present) {
        String text = "text " + runs.incrementAndGet();
        return present ? Optional.of(text) : Optional.empty();
    }

    @Idempotent
    public Optional<List<OrderLine>> someLines(@IdempotencyKey String id, boolean present) {
        List<OrderLine> lines = List.of(new OrderLine(id, runs.incrementAndGet(), "7"));
        return present ? Optional.of(lines) : Optional.empty();
    }

    @Idempotent
    public OptionalInt count(@IdempotencyKey String id, boolean present) {
        int run = runs.incrementAndGet();
        return present ? OptionalInt.of(run) : OptionalInt.empty();
    }

    @Idempotent
    public OptionalLong cents(@IdempotencyKey String id, boolean present) {
        long run = runs.incrementAndGet();
        return present ? OptionalLong.of(run * 100L) : OptionalLong.empty();
    }

    @Idempotent
    public OptionalDouble rate(@IdempotencyKey String id, boolean present) {
        int run = runs.incrementAndGet();
        return present ? OptionalDouble.of(run + 0.5) : OptionalDouble.empty();
    }

    @Idempotent
    public CompletionStage<Optional<OrderLine>> laterLine(@IdempotencyKey String id, boolean present) {
        OrderLine line = new OrderLine(id, runs.incrementAndGet(), "8");
        return CompletableFuture.completedFuture(present ? Optional.of(line) : Optional.empty());
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
