package dev.idempotency.internal.cdi;

import dev.idempotency.internal.cdi.Shapes.Card;
import dev.idempotency.internal.cdi.Shapes.Channel;
import dev.idempotency.internal.cdi.Shapes.Customer;
import dev.idempotency.internal.cdi.Shapes.Money;
import dev.idempotency.internal.cdi.Shapes.Order;
import dev.idempotency.internal.cdi.Shapes.OrderRef;
import dev.idempotency.internal.cdi.Shapes.Payment;
import dev.idempotency.internal.cdi.Shapes.Ref;
import dev.idempotency.internal.cdi.Shapes.Transfer;
import dev.idempotency.internal.cdi.Shapes.Voucher;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The argument shapes of the shape matrix, each as a key and as a payload of a {@link Shapes} method:
 * a value, an equal value made anew, and a value that differs from it in exactly one piece of state.
 * {@link ShapeMatrixTest} runs them through Weld; the in-container scenarios through an EJB.
 */
public final class ShapeRows {

    private static final AtomicInteger SCALES = new AtomicInteger();

    private ShapeRows() {}

    /**
     * One shape: how to call it as a key and as a payload, a value, an equal value made anew, and a
     * value that differs from it in exactly one piece of state.
     */
    public record Shape<T>(
            String name,
            BiFunction<Shapes, T, String> asKey,
            TriFunction<Shapes, String, T, String> asPayload,
            Supplier<T> value,
            Supplier<T> other) {
        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    public interface TriFunction<A, B, C, R> {
        R apply(A a, B b, C c);
    }

    /** Every shape. */
    public static Stream<Shape<?>> all() {
        return Stream.of(
                new Shape<>(
                        "value class",
                        Shapes::valueClassAsKey,
                        Shapes::valueClassAsPayload,
                        () -> new OrderRef("A"),
                        () -> new OrderRef("B")),
                new Shape<>(
                        "record",
                        Shapes::recordAsKey,
                        Shapes::recordAsPayload,
                        () -> new Ref("A", 1),
                        () -> new Ref("A", 2)),
                new Shape<>(
                        "bean with getters",
                        Shapes::beanAsKey,
                        Shapes::beanAsPayload,
                        () -> new Customer("Ann", 1),
                        () -> new Customer("Ann", 2)),
                new Shape<>(
                        "enum",
                        Shapes::enumValueAsKey,
                        Shapes::enumValueAsPayload,
                        () -> Channel.WEB,
                        () -> Channel.SHOP),
                new Shape<>(
                        "BigDecimal (12.5 equals 12.50)",
                        Shapes::decimalAsKey,
                        Shapes::decimalAsPayload,
                        // Each equal value made anew has the other scale: 12.5, 12.50, 12.5, ...
                        () -> new BigDecimal("12.5").setScale(1 + SCALES.getAndIncrement() % 2),
                        () -> new BigDecimal("12.51")),
                new Shape<>(
                        "double", Shapes::doubleAsKey, Shapes::doubleAsPayload, () -> 0.1, () -> 0.1 + Math.ulp(0.1)),
                new Shape<>(
                        "java.time",
                        Shapes::dateAsKey,
                        Shapes::dateAsPayload,
                        () -> LocalDate.of(2026, 1, 1),
                        () -> LocalDate.of(2026, 1, 2)),
                new Shape<>(
                        "UUID",
                        Shapes::uuidAsKey,
                        Shapes::uuidAsPayload,
                        () -> UUID.fromString("00000000-0000-0000-0000-000000000001"),
                        () -> UUID.fromString("00000000-0000-0000-0000-000000000002")),
                new Shape<>(
                        "Optional of a value class",
                        Shapes::optionalAsKey,
                        Shapes::optionalAsPayload,
                        () -> Optional.of(new Money(100)),
                        () -> Optional.of(new Money(999))),
                new Shape<>(
                        "Optional, empty and present",
                        Shapes::optionalAsKey,
                        Shapes::optionalAsPayload,
                        Optional::empty,
                        () -> Optional.of(new Money(100))),
                new Shape<>(
                        "array of value classes",
                        Shapes::arrayAsKey,
                        Shapes::arrayAsPayload,
                        () -> new Money[] {new Money(1), new Money(2)},
                        () -> new Money[] {new Money(1), new Money(3)}),
                new Shape<>(
                        "list of value classes",
                        Shapes::listAsKey,
                        Shapes::listAsPayload,
                        () -> List.of(new Money(1), new Money(2)),
                        () -> List.of(new Money(1), new Money(3))),
                new Shape<>(
                        "set of value classes",
                        Shapes::setAsKey,
                        Shapes::setAsPayload,
                        () -> new LinkedHashSet<>(List.of(new Money(1), new Money(2))),
                        () -> new LinkedHashSet<>(List.of(new Money(1), new Money(3)))),
                new Shape<>(
                        "map of value classes",
                        Shapes::mapAsKey,
                        Shapes::mapAsPayload,
                        () -> ordered("a", new Money(1), "b", new Money(2)),
                        () -> ordered("a", new Money(1), "b", new Money(3))),
                new Shape<>(
                        "map keyed by a value class",
                        Shapes::mapByValueClassAsKey,
                        Shapes::mapByValueClassAsPayload,
                        () -> ordered(new OrderRef("A"), new Money(1), new OrderRef("B"), new Money(2)),
                        () -> ordered(new OrderRef("A"), new Money(1), new OrderRef("C"), new Money(2))),
                new Shape<>(
                        "map keyed by 1 and 1L (one key text, two entries)",
                        Shapes::mapByAnyKeyAsKey,
                        Shapes::mapByAnyKeyAsPayload,
                        () -> ordered(1, "a", 1L, "b"),
                        () -> ordered(1, "c", 1L, "b")),
                new Shape<>(
                        "nested values",
                        Shapes::nestedAsKey,
                        Shapes::nestedAsPayload,
                        () -> new Order(new OrderRef("A"), List.of(new Money(1)), new Customer("Ann", 1)),
                        () -> new Order(new OrderRef("A"), List.of(new Money(1)), new Customer("Ann", 2))),
                new Shape<>(
                        "interface-typed field, two implementations",
                        Shapes::byInterfaceAsKey,
                        Shapes::byInterfaceAsPayload,
                        () -> new Payment(new Card("4111")),
                        () -> new Payment(new Voucher("4111"))),
                new Shape<>(
                        "superclass field",
                        Shapes::inheritedAsKey,
                        Shapes::inheritedAsPayload,
                        () -> new Transfer("acc-1", 100),
                        () -> new Transfer("acc-2", 100)));
    }

    private static <K, V> Map<K, V> ordered(K k1, V v1, K k2, V v2) {
        Map<K, V> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }
}
