package dev.idempotency.bench;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The argument shapes of {@link ValueWalkBenchmark}: one guarded method per shape, and the arguments
 * of a call. Self-contained (it refers only to the library's public API and the JDK), so that the
 * benchmark can load fresh copies of these classes to measure the first call of a class.
 */
public final class ValueWalkShapes {

    private ValueWalkShapes() {}

    /** The guarded method of a shape, by its name in {@link Service}. */
    public static Method method(String shape) {
        for (Method m : Service.class.getMethods()) {
            if (m.getName().equals(shape)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no shape " + shape);
    }

    /** The arguments of a call of a shape; the same values (order 42, 4 fields a payment) in every shape. */
    public static Object[] args(String shape) {
        String payer = "DE89370400440532013000";
        String reference = "invoice 2024-17";
        OrderRef ref = new OrderRef("acme", "order-42");
        OrderRefValue refValue = new OrderRefValue("acme", "order-42");
        return switch (shape) {
            case "floor" -> new Object[] {"order-42", 4200L};
            case "record" -> new Object[] {ref, new Payment(payer, "EUR", 4200, reference)};
            case "recordPackagePrivate" -> new Object[] {
                new HiddenOrderRef("acme", "order-42"), new HiddenPayment(payer, "EUR", 4200, reference)
            };
            case "recordKeyInPayload" -> new Object[] {new PaymentRequest("order-42", payer, "EUR", 4200, reference)};
            case "valueClass" -> new Object[] {refValue, new PaymentValue(payer, "EUR", 4200, reference)};
            case "hierarchy" -> new Object[] {refValue, new Refund(payer, "EUR", 4200, reference)};
            case "list10" -> new Object[] {refValue, new Basket("customer-7", lines(10))};
            case "list100" -> new Object[] {refValue, new Basket("customer-7", lines(100))};
            case "map10" -> new Object[] {refValue, new BasketById("customer-7", byId(10))};
            case "map100" -> new Object[] {refValue, new BasketById("customer-7", byId(100))};
            case "recordList10" -> new Object[] {ref, new BasketRecord("customer-7", lineRecords(10))};
            case "recordList100" -> new Object[] {ref, new BasketRecord("customer-7", lineRecords(100))};
            default -> throw new IllegalArgumentException("no shape " + shape);
        };
    }

    private static List<Line> lines(int n) {
        List<Line> lines = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            lines.add(new Line("sku-" + (10_000 + i), 1 + i % 5, 199 + i));
        }
        return lines;
    }

    private static Map<String, Line> byId(int n) {
        Map<String, Line> lines = new LinkedHashMap<>();
        for (Line line : lines(n)) {
            lines.put(line.sku(), line);
        }
        return lines;
    }

    private static List<LineRecord> lineRecords(int n) {
        List<LineRecord> lines = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            lines.add(new LineRecord("sku-" + (10_000 + i), 1 + i % 5, 199 + i));
        }
        return lines;
    }

    /** One guarded method per shape; the bodies never run. */
    public static final class Service {

        /** (a) The floor: a String key and a long. */
        @Idempotent(name = "walk.floor")
        public String floor(@IdempotencyKey String orderId, long amountCents) {
            return orderId;
        }

        /** (b) A public record key and a public record payload: JSON-B writes them whole. */
        @Idempotent(name = "walk.record")
        public String record(@IdempotencyKey OrderRef ref, Payment payment) {
            return ref.orderId();
        }

        /** (b) The same records, not public: JSON-B cannot call their accessors, so they are read by fields. */
        @Idempotent(name = "walk.recordPackagePrivate")
        public String recordPackagePrivate(@IdempotencyKey HiddenOrderRef ref, HiddenPayment payment) {
            return ref.orderId();
        }

        /** (b) One public record whose key is one of its components. */
        @Idempotent(name = "walk.recordKeyInPayload")
        public String recordKeyInPayload(PaymentRequest request) {
            return request.orderId();
        }

        /** (c) Final value classes with private final fields and accessors without "get". */
        @Idempotent(name = "walk.valueClass")
        public String valueClass(@IdempotencyKey OrderRefValue ref, PaymentValue payment) {
            return ref.orderId();
        }

        /** (d) A value class holding a list of 10 value objects. */
        @Idempotent(name = "walk.list10")
        public String list10(@IdempotencyKey OrderRefValue ref, Basket basket) {
            return ref.orderId();
        }

        /** (d) The same with 100. */
        @Idempotent(name = "walk.list100")
        public String list100(@IdempotencyKey OrderRefValue ref, Basket basket) {
            return ref.orderId();
        }

        /** (d) A value class holding a map of 10 value objects by id. */
        @Idempotent(name = "walk.map10")
        public String map10(@IdempotencyKey OrderRefValue ref, BasketById basket) {
            return ref.orderId();
        }

        /** (d) The same with 100. */
        @Idempotent(name = "walk.map100")
        public String map100(@IdempotencyKey OrderRefValue ref, BasketById basket) {
            return ref.orderId();
        }

        /** (d) A public record holding a list of 10 public records. */
        @Idempotent(name = "walk.recordList10")
        public String recordList10(@IdempotencyKey OrderRef ref, BasketRecord basket) {
            return ref.orderId();
        }

        /** (d) The same with 100. */
        @Idempotent(name = "walk.recordList100")
        public String recordList100(@IdempotencyKey OrderRef ref, BasketRecord basket) {
            return ref.orderId();
        }

        /** (e) A subclass whose private fields are half inherited. */
        @Idempotent(name = "walk.hierarchy")
        public String hierarchy(@IdempotencyKey OrderRefValue ref, Refund refund) {
            return ref.orderId();
        }
    }

    public record OrderRef(String tenant, String orderId) {}

    public record Payment(String payer, String currency, long amountCents, String reference) {}

    record HiddenOrderRef(String tenant, String orderId) {}

    record HiddenPayment(String payer, String currency, long amountCents, String reference) {}

    public record PaymentRequest(
            @IdempotencyKey String orderId, String payer, String currency, long amountCents, String reference) {}

    public record LineRecord(String sku, int quantity, long unitCents) {}

    public record BasketRecord(String customer, List<LineRecord> lines) {}

    /** A value class: private final fields, accessors without "get", no setters. */
    public static final class OrderRefValue {
        private final String tenant;
        private final String orderId;

        public OrderRefValue(String tenant, String orderId) {
            this.tenant = tenant;
            this.orderId = orderId;
        }

        public String tenant() {
            return tenant;
        }

        public String orderId() {
            return orderId;
        }
    }

    /** The payment of (c), as a value class. */
    public static final class PaymentValue {
        private final String payer;
        private final String currency;
        private final long amountCents;
        private final String reference;

        public PaymentValue(String payer, String currency, long amountCents, String reference) {
            this.payer = payer;
            this.currency = currency;
            this.amountCents = amountCents;
            this.reference = reference;
        }

        public String payer() {
            return payer;
        }

        public String currency() {
            return currency;
        }

        public long amountCents() {
            return amountCents;
        }

        public String reference() {
            return reference;
        }
    }

    /** The base of (e): two of the four fields, private. */
    public abstract static class Transfer {
        private final String payer;
        private final String currency;

        protected Transfer(String payer, String currency) {
            this.payer = payer;
            this.currency = currency;
        }

        public String payer() {
            return payer;
        }

        public String currency() {
            return currency;
        }
    }

    /** The subclass of (e): the same four fields as {@link PaymentValue}, two of them inherited. */
    public static final class Refund extends Transfer {
        private final long amountCents;
        private final String reference;

        public Refund(String payer, String currency, long amountCents, String reference) {
            super(payer, currency);
            this.amountCents = amountCents;
            this.reference = reference;
        }

        public long amountCents() {
            return amountCents;
        }

        public String reference() {
            return reference;
        }
    }

    /** An element of (d). */
    public static final class Line {
        private final String sku;
        private final int quantity;
        private final long unitCents;

        public Line(String sku, int quantity, long unitCents) {
            this.sku = sku;
            this.quantity = quantity;
            this.unitCents = unitCents;
        }

        public String sku() {
            return sku;
        }

        public int quantity() {
            return quantity;
        }

        public long unitCents() {
            return unitCents;
        }
    }

    /** (d) with a list. */
    public static final class Basket {
        private final String customer;
        private final List<Line> lines;

        public Basket(String customer, List<Line> lines) {
            this.customer = customer;
            this.lines = List.copyOf(lines);
        }

        public String customer() {
            return customer;
        }

        public List<Line> lines() {
            return lines;
        }
    }

    /** (d) with a map. */
    public static final class BasketById {
        private final String customer;
        private final Map<String, Line> lines;

        public BasketById(String customer, Map<String, Line> lines) {
            this.customer = customer;
            this.lines = Map.copyOf(lines);
        }

        public String customer() {
            return customer;
        }

        public Map<String, Line> lines() {
            return lines;
        }
    }
}
