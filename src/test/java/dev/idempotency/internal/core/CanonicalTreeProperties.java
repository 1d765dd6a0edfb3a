package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.statistics.Statistics;

/**
 * Over generated nested values (records, value classes, beans, lists, sets, maps, decimals, optionals,
 * an interface-typed field with two implementations of the same fields), two values give the same key
 * text and the same fingerprint text exactly when they are equal. Equal here means: of the same classes,
 * with equal state, where {@code BigDecimal} 1.0 and 1.00 are equal and set and map order do not matter.
 */
class CanonicalTreeProperties {

    /** A means of payment. */
    public interface Tender {}

    /** A card: a value class. */
    public static final class Card implements Tender {
        private final String number;
        private final BigDecimal limit;

        Card(String number, BigDecimal limit) {
            this.number = number;
            this.limit = limit;
        }
    }

    /** A voucher: the same fields as a card. */
    public static final class Voucher implements Tender {
        private final String number;
        private final BigDecimal limit;

        Voucher(String number, BigDecimal limit) {
            this.number = number;
            this.limit = limit;
        }
    }

    /** A record JSON-B writes whole. */
    public record Item(String sku, BigDecimal price, Optional<String> note) {}

    /** A value class. */
    public static final class Money {
        private final BigDecimal amount;
        private final String currency;

        Money(BigDecimal amount, String currency) {
            this.amount = amount;
            this.currency = currency;
        }
    }

    /** A bean with getters, holding a value class. */
    public static class Holder {
        private String name;
        private Money money;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public Money getMoney() {
            return money;
        }

        public void setMoney(Money money) {
            this.money = money;
        }
    }

    /** The root of a tree. */
    public static final class Basket {
        private final List<Item> items;
        private final Set<String> tags;
        private final Map<String, Money> totals;
        private final Tender tender;
        private final Holder holder;

        Basket(List<Item> items, Set<String> tags, Map<String, Money> totals, Tender tender, Holder holder) {
            this.items = items;
            this.tags = tags;
            this.totals = totals;
            this.tender = tender;
            this.holder = holder;
        }
    }

    static class Api {
        public void fill(Basket basket) {}

        public void keyed(@IdempotencyKey Basket basket) {}
    }

    private static final Method FILL = method("fill");
    private static final KeyReader KEYS = KeyReader.of(method("keyed"));

    private static Method method(String name) {
        return Arrays.stream(Api.class.getDeclaredMethods())
                .filter(m -> m.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Property(tries = 1000)
    void textsAreEqualExactlyWhenTheValuesAre(@ForAll("pairs") Tuple2<Basket, Basket> pair) {
        Basket a = pair.get1();
        Basket b = pair.get2();
        boolean equal = norm(a).equals(norm(b));
        Statistics.label("equal values").collect(equal);
        String fa = CanonicalJson.ofArguments(new Object[] {a}, CanonicalJson.writers(FILL));
        String fb = CanonicalJson.ofArguments(new Object[] {b}, CanonicalJson.writers(FILL));
        assertThat(fa.equals(fb))
                .as("fingerprint texts %s and %s for values %s and %s", fa, fb, norm(a), norm(b))
                .isEqualTo(equal);
        String ka = KEYS.read(new Object[] {a});
        String kb = KEYS.read(new Object[] {b});
        assertThat(ka.equals(kb))
                .as("key texts %s and %s for values %s and %s", ka, kb, norm(a), norm(b))
                .isEqualTo(equal);
        Statistics.label("equal values").coverage(c -> {
            c.check(true).percentage(p -> p > 15);
            c.check(false).percentage(p -> p > 15);
        });
    }

    // --- equality by value, the reference the texts are held to ---

    private static Object norm(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        }
        if (v instanceof Basket b) {
            List<Object> items = new ArrayList<>();
            b.items.forEach(i -> items.add(norm(i)));
            Map<String, Object> totals = new TreeMap<>();
            b.totals.forEach((k, m) -> totals.put(k, norm(m)));
            return Arrays.asList("Basket", items, new TreeSet<>(b.tags), totals, norm(b.tender), norm(b.holder));
        }
        if (v instanceof Item i) {
            return Arrays.asList("Item", i.sku(), norm(i.price()), i.note().orElse(null));
        }
        if (v instanceof Money m) {
            return Arrays.asList("Money", norm(m.amount), m.currency);
        }
        if (v instanceof Card c) {
            return Arrays.asList("Card", c.number, norm(c.limit));
        }
        if (v instanceof Voucher c) {
            return Arrays.asList("Voucher", c.number, norm(c.limit));
        }
        if (v instanceof Holder h) {
            return Arrays.asList("Holder", h.getName(), norm(h.getMoney()));
        }
        throw new IllegalArgumentException(v.getClass().getName());
    }

    // --- generators: small domains, so that equal values come up often ---

    private static Arbitrary<String> texts() {
        return Arbitraries.of("a", "b");
    }

    private static Arbitrary<BigDecimal> decimals() {
        return Arbitraries.of(new BigDecimal("1"), new BigDecimal("1.0"), new BigDecimal("1.00"), new BigDecimal("2"));
    }

    private static Arbitrary<Money> moneys() {
        return Combinators.combine(decimals(), texts()).as(Money::new);
    }

    private static Arbitrary<Tender> tenders() {
        Arbitrary<Tender> cards = Combinators.combine(texts(), decimals()).as(Card::new);
        Arbitrary<Tender> vouchers = Combinators.combine(texts(), decimals()).as(Voucher::new);
        return Arbitraries.oneOf(cards, vouchers).injectNull(0.1);
    }

    private static Arbitrary<Holder> holders() {
        return Combinators.combine(texts().injectNull(0.2), moneys().injectNull(0.2))
                .as((name, money) -> {
                    Holder h = new Holder();
                    h.setName(name);
                    h.setMoney(money);
                    return h;
                })
                .injectNull(0.1);
    }

    private static Arbitrary<Item> items() {
        return Combinators.combine(texts(), decimals(), texts().optional()).as(Item::new);
    }

    private static Arbitrary<Basket> baskets() {
        return Combinators.combine(
                        items().list().ofMaxSize(2),
                        texts().set().ofMaxSize(2),
                        Arbitraries.maps(texts(), moneys()).ofMaxSize(1),
                        tenders(),
                        holders())
                .as(Basket::new);
    }

    @Provide
    Arbitrary<Tuple2<Basket, Basket>> pairs() {
        Arbitrary<Tuple2<Basket, Basket>> independent =
                Combinators.combine(baskets(), baskets()).as(Tuple::of);
        Arbitrary<Tuple2<Basket, Basket>> rebuilt = baskets().map(b -> Tuple.of(b, rebuild(b, false)));
        Arbitrary<Tuple2<Basket, Basket>> otherTender = baskets().map(b -> Tuple.of(b, rebuild(b, true)));
        return Arbitraries.frequencyOf(Tuple.of(4, independent), Tuple.of(4, rebuilt), Tuple.of(2, otherTender));
    }

    /**
     * An equal basket made of new instances, decimals with another scale, sets and maps in the other
     * order; with {@code swapTender}, its tender of the other class with the same fields.
     */
    private static Basket rebuild(Basket b, boolean swapTender) {
        List<Item> items = new ArrayList<>();
        for (Item i : b.items) {
            items.add(new Item(new String(i.sku()), rescale(i.price()), i.note().map(String::new)));
        }
        List<String> tags = new ArrayList<>(b.tags);
        Collections.reverse(tags);
        Map<String, Money> totals = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(b.totals.keySet());
        Collections.reverse(keys);
        for (String k : keys) {
            totals.put(k, rebuild(b.totals.get(k)));
        }
        Tender tender = b.tender;
        if (tender instanceof Card c) {
            tender = swapTender ? new Voucher(c.number, c.limit) : new Card(c.number, rescale(c.limit));
        } else if (tender instanceof Voucher v) {
            tender = swapTender ? new Card(v.number, v.limit) : new Voucher(v.number, rescale(v.limit));
        }
        Holder holder = null;
        if (b.holder != null) {
            holder = new Holder();
            holder.setName(b.holder.getName());
            holder.setMoney(rebuild(b.holder.getMoney()));
        }
        return new Basket(items, new LinkedHashSet<>(tags), totals, tender, holder);
    }

    private static Money rebuild(Money m) {
        return m == null ? null : new Money(rescale(m.amount), m.currency);
    }

    private static BigDecimal rescale(BigDecimal d) {
        return d.setScale(d.scale() + 1);
    }
}
