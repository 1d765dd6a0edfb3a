package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The argument shapes users write, each as a key and as a payload under a string key: every call that
 * runs returns the next run number, so a replay shows as an earlier number.
 */
@ApplicationScoped
@Idempotent(name = "shapes")
public class Shapes {

    /** A value class: a private final field and an accessor without {@code get}; JSON-B sees nothing. */
    public static final class OrderRef {
        private final String id;

        public OrderRef(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** A value class holding an amount. */
    public static final class Money {
        private final long cents;

        public Money(long cents) {
            this.cents = cents;
        }

        public long cents() {
            return cents;
        }
    }

    /** A record. */
    public record Ref(String id, int version) {}

    /** A bean with getters and setters. */
    public static class Customer {
        private String name;
        private int tier;

        public Customer() {}

        public Customer(String name, int tier) {
            this.name = name;
            this.tier = tier;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getTier() {
            return tier;
        }

        public void setTier(int tier) {
            this.tier = tier;
        }
    }

    /** An enum. */
    public enum Channel {
        WEB,
        SHOP
    }

    /** Nested values: a value class holding a list of value classes and a bean. */
    public static final class Order {
        private final OrderRef ref;
        private final List<Money> lines;
        private final Customer customer;

        public Order(OrderRef ref, List<Money> lines, Customer customer) {
            this.ref = ref;
            this.lines = lines;
            this.customer = customer;
        }
    }

    /** A means of payment: two implementations with the same fields. */
    public interface Tender {}

    /** A card. */
    public static final class Card implements Tender {
        private final String number;

        public Card(String number) {
            this.number = number;
        }
    }

    /** A voucher, with the same field as a card. */
    public static final class Voucher implements Tender {
        private final String number;

        public Voucher(String number) {
            this.number = number;
        }
    }

    /** A field declared as an interface. */
    public static final class Payment {
        private final Tender tender;

        public Payment(Tender tender) {
            this.tender = tender;
        }
    }

    /** A superclass with state of its own. */
    public abstract static class Base {
        private final String account;

        protected Base(String account) {
            this.account = account;
        }
    }

    /** A subclass: its state is its own field and its superclass's. */
    public static final class Transfer extends Base {
        private final long cents;

        public Transfer(String account, long cents) {
            super(account);
            this.cents = cents;
        }
    }

    private final AtomicInteger runs = new AtomicInteger();

    private String run() {
        return "run-" + runs.incrementAndGet();
    }

    public String valueClassAsKey(@IdempotencyKey OrderRef key) {
        return run();
    }

    public String valueClassAsPayload(@IdempotencyKey String id, OrderRef payload) {
        return run();
    }

    public String recordAsKey(@IdempotencyKey Ref key) {
        return run();
    }

    public String recordAsPayload(@IdempotencyKey String id, Ref payload) {
        return run();
    }

    public String beanAsKey(@IdempotencyKey Customer key) {
        return run();
    }

    public String beanAsPayload(@IdempotencyKey String id, Customer payload) {
        return run();
    }

    public String enumValueAsKey(@IdempotencyKey Channel key) {
        return run();
    }

    public String enumValueAsPayload(@IdempotencyKey String id, Channel payload) {
        return run();
    }

    public String decimalAsKey(@IdempotencyKey BigDecimal key) {
        return run();
    }

    public String decimalAsPayload(@IdempotencyKey String id, BigDecimal payload) {
        return run();
    }

    public String doubleAsKey(@IdempotencyKey double key) {
        return run();
    }

    public String doubleAsPayload(@IdempotencyKey String id, double payload) {
        return run();
    }

    public String dateAsKey(@IdempotencyKey LocalDate key) {
        return run();
    }

    public String dateAsPayload(@IdempotencyKey String id, LocalDate payload) {
        return run();
    }

    public String uuidAsKey(@IdempotencyKey UUID key) {
        return run();
    }

    public String uuidAsPayload(@IdempotencyKey String id, UUID payload) {
        return run();
    }

    public String optionalAsKey(@IdempotencyKey Optional<Money> key) {
        return run();
    }

    public String optionalAsPayload(@IdempotencyKey String id, Optional<Money> payload) {
        return run();
    }

    public String arrayAsKey(@IdempotencyKey Money[] key) {
        return run();
    }

    public String arrayAsPayload(@IdempotencyKey String id, Money[] payload) {
        return run();
    }

    public String listAsKey(@IdempotencyKey List<Money> key) {
        return run();
    }

    public String listAsPayload(@IdempotencyKey String id, List<Money> payload) {
        return run();
    }

    public String setAsKey(@IdempotencyKey Set<Money> key) {
        return run();
    }

    public String setAsPayload(@IdempotencyKey String id, Set<Money> payload) {
        return run();
    }

    public String mapAsKey(@IdempotencyKey Map<String, Money> key) {
        return run();
    }

    public String mapAsPayload(@IdempotencyKey String id, Map<String, Money> payload) {
        return run();
    }

    public String mapByValueClassAsKey(@IdempotencyKey Map<OrderRef, Money> key) {
        return run();
    }

    public String mapByValueClassAsPayload(@IdempotencyKey String id, Map<OrderRef, Money> payload) {
        return run();
    }

    public String mapByAnyKeyAsKey(@IdempotencyKey Map<Object, String> key) {
        return run();
    }

    public String mapByAnyKeyAsPayload(@IdempotencyKey String id, Map<Object, String> payload) {
        return run();
    }

    public String nestedAsKey(@IdempotencyKey Order key) {
        return run();
    }

    public String nestedAsPayload(@IdempotencyKey String id, Order payload) {
        return run();
    }

    public String byInterfaceAsKey(@IdempotencyKey Payment key) {
        return run();
    }

    public String byInterfaceAsPayload(@IdempotencyKey String id, Payment payload) {
        return run();
    }

    public String inheritedAsKey(@IdempotencyKey Transfer key) {
        return run();
    }

    public String inheritedAsPayload(@IdempotencyKey String id, Transfer payload) {
        return run();
    }
}
