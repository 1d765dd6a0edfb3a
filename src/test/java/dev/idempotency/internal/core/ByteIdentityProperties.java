package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Keys and fingerprints of the shapes that JSON-B always wrote whole (strings, numbers, records, beans
 * with getters, lists and maps of them) are byte-identical to {@link LegacyCanonicalJson}'s, so that
 * records stored before values were read by their fields still match their retries.
 */
class ByteIdentityProperties {

    /** A record. */
    public record Line(String sku, int quantity, BigDecimal price, double weight) {}

    /** A bean with getters (not final, so a subclass could hide state: checked per call). */
    public static class Address {
        private String city;
        private List<String> streets = new ArrayList<>();

        public String getCity() {
            return city;
        }

        public void setCity(String city) {
            this.city = city;
        }

        public List<String> getStreets() {
            return streets;
        }

        public void setStreets(List<String> streets) {
            this.streets = streets;
        }
    }

    /** A bean with getters, holding a bean. */
    public static class Customer {
        private String name;
        private long points;
        private boolean active;
        private Address address;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public long getPoints() {
            return points;
        }

        public void setPoints(long points) {
            this.points = points;
        }

        public boolean isActive() {
            return active;
        }

        public void setActive(boolean active) {
            this.active = active;
        }

        public Address getAddress() {
            return address;
        }

        public void setAddress(Address address) {
            this.address = address;
        }
    }

    /** A record of records, beans, lists and maps. */
    public record Order(String id, List<Line> lines, Map<String, Line> byName, Customer customer, Long total) {}

    static class Api {
        public void pay(
                String key,
                long amount,
                BigDecimal price,
                Order order,
                List<Customer> customers,
                Map<String, List<Line>> groups) {}

        public void keyed(@IdempotencyKey Order order, @IdempotencyKey(order = 1) Customer customer) {}
    }

    private static final Method PAY = method("pay");
    private static final Method KEYED = method("keyed");

    private static Method method(String name) {
        return Arrays.stream(Api.class.getDeclaredMethods())
                .filter(m -> m.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Property(tries = 300)
    void fingerprintTextsAreTheLegacyOnes(
            @ForAll("texts") String key,
            @ForAll long amount,
            @ForAll("decimals") BigDecimal price,
            @ForAll("orders") Order order,
            @ForAll("customerLists") List<Customer> customers,
            @ForAll("groups") Map<String, List<Line>> groups) {
        Object[] args = {key, amount, price, order, customers, groups};
        assertThat(CanonicalJson.ofArguments(args, CanonicalJson.writers(PAY)))
                .isEqualTo(LegacyCanonicalJson.of(Arrays.asList(args)));
    }

    @Property(tries = 300)
    void keyTextsAreTheLegacyOnes(@ForAll("orders") Order order, @ForAll("customers") Customer customer) {
        StringBuilder legacy = new StringBuilder("[");
        LegacyCanonicalJson.appendString(legacy, LegacyCanonicalJson.keyText(order));
        legacy.append(',');
        LegacyCanonicalJson.appendString(legacy, LegacyCanonicalJson.keyText(customer));
        legacy.append(']');
        assertThat(KeyReader.of(KEYED).read(new Object[] {order, customer})).isEqualTo(legacy.toString());
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().ofMaxLength(6).withChars("ab\"\\\né");
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        return Arbitraries.bigDecimals()
                .between(new BigDecimal("-1000"), new BigDecimal("1000"))
                .ofScale(3);
    }

    Arbitrary<Line> lines() {
        return Combinators.combine(
                        texts(),
                        Arbitraries.integers(),
                        decimals(),
                        Arbitraries.doubles().between(-1e6, 1e6).ofScale(4))
                .as(Line::new);
    }

    Arbitrary<Address> addresses() {
        return Combinators.combine(texts().injectNull(0.2), texts().list().ofMaxSize(3))
                .as((city, streets) -> {
                    Address a = new Address();
                    a.setCity(city);
                    a.setStreets(streets);
                    return a;
                });
    }

    @Provide
    Arbitrary<Customer> customers() {
        return Combinators.combine(
                        texts(),
                        Arbitraries.longs(),
                        Arbitraries.of(true, false),
                        addresses().injectNull(0.2))
                .as((name, points, active, address) -> {
                    Customer c = new Customer();
                    c.setName(name);
                    c.setPoints(points);
                    c.setActive(active);
                    c.setAddress(address);
                    return c;
                });
    }

    @Provide
    Arbitrary<List<Customer>> customerLists() {
        return customers().list().ofMaxSize(3);
    }

    @Provide
    Arbitrary<Order> orders() {
        return Combinators.combine(
                        texts(),
                        lines().list().ofMaxSize(3),
                        Arbitraries.maps(texts(), lines()).ofMaxSize(3),
                        customers().injectNull(0.2),
                        Arbitraries.longs().injectNull(0.3))
                .as(Order::new);
    }

    @Provide
    Arbitrary<Map<String, List<Line>>> groups() {
        return Arbitraries.maps(texts(), lines().list().ofMaxSize(2)).ofMaxSize(3);
    }
}
