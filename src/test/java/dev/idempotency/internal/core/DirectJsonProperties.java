package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import jakarta.json.bind.annotation.JsonbProperty;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The records and beans {@link DirectJson} writes without JSON-B get exactly the text of the JSON-B
 * path ({@link LegacyCanonicalJson}: JSON-B, parsed back, written canonically), nulls, negative and
 * big numbers, decimals of every scale, escapes and unicode, empty and nested containers included;
 * the classes it must leave to JSON-B have no plan.
 */
class DirectJsonProperties {

    /** Every scalar of the direct set, primitive and boxed. */
    public record Scalars(
            String s,
            int i,
            long l,
            short sh,
            byte b,
            boolean z,
            Integer boxedInt,
            Long boxedLong,
            Short boxedShort,
            Byte boxedByte,
            Boolean boxedBool,
            BigInteger big,
            BigDecimal dec) {}

    /** A final bean: private fields, one public getter each ({@code isActive} for the boolean). */
    public static final class Account {
        private String owner;
        private long balance;
        private boolean active;
        private BigDecimal limit;
        private List<String> notes;

        public String getOwner() {
            return owner;
        }

        public void setOwner(String owner) {
            this.owner = owner;
        }

        public long getBalance() {
            return balance;
        }

        public void setBalance(long balance) {
            this.balance = balance;
        }

        public boolean isActive() {
            return active;
        }

        public void setActive(boolean active) {
            this.active = active;
        }

        public BigDecimal getLimit() {
            return limit;
        }

        public void setLimit(BigDecimal limit) {
            this.limit = limit;
        }

        public List<String> getNotes() {
            return notes;
        }

        public void setNotes(List<String> notes) {
            this.notes = notes;
        }
    }

    /** A record whose accessor is not its field: JSON-B writes what the accessor returns. */
    public record Shouting(String word) {
        @Override
        public String word() {
            return word == null ? null : word.toUpperCase(Locale.ROOT);
        }
    }

    /** Records, beans, lists, collections and maps of them, nested. */
    public record Nested(
            Scalars one,
            List<Scalars> many,
            Map<String, BigDecimal> amounts,
            List<List<String>> grid,
            Collection<Long> ids,
            Map<String, List<Scalars>> groups,
            ArrayList<String> tags,
            LinkedHashMap<String, Integer> counts,
            HashMap<String, Map<String, Boolean>> flags,
            Account account,
            List<Account> accounts,
            Shouting shout) {}

    /** Renamed by JSON-B: left to it. */
    public record Renamed(@JsonbProperty("other") String name, int n) {}

    /** A double: left to JSON-B. */
    public record WithDouble(String name, double weight) {}

    /** A component named like a getter: left to JSON-B. */
    public record Book(String isbn, String title) {}

    /** A computed getter JSON-B writes too: left to it. */
    public record WithComputed(long cents) {
        public String getDisplay() {
            return cents / 100 + " EUR";
        }
    }

    /** A bean whose field name JavaBeans decapitalises another way: left to JSON-B. */
    public static final class OddName {
        private String xRay;

        public String getXRay() {
            return xRay;
        }
    }

    static class Api {
        public void pay(@IdempotencyKey Scalars key, Nested payment, long amount) {}
    }

    private static final Method PAY = Api.class.getDeclaredMethods()[0];

    @Property(tries = 300)
    void keysAndFingerprintsAreTheLegacyOnes(
            @ForAll("scalars") Scalars key, @ForAll("nested") Nested payment, @ForAll long amount) {
        Object[] args = {key, payment, amount};
        assertThat(CanonicalJson.ofArguments(args, CanonicalJson.writers(PAY)))
                .isEqualTo(LegacyCanonicalJson.of(Arrays.asList(args)));
        StringBuilder legacy = new StringBuilder("[");
        LegacyCanonicalJson.appendString(legacy, LegacyCanonicalJson.keyText(key));
        assertThat(KeyReader.of(PAY).read(args)).isEqualTo(legacy.append(']').toString());
    }

    @Example
    void theSafeClassesHaveAPlanAndTheOthersNone() {
        assertThat(ValueTypes.shape(Scalars.class).direct()).isNotNull();
        assertThat(ValueTypes.shape(Account.class).direct()).isNotNull();
        assertThat(ValueTypes.shape(Shouting.class).direct()).isNotNull();
        assertThat(ValueTypes.shape(Nested.class).direct()).isNotNull();
        for (Class<?> c : List.of(Renamed.class, WithDouble.class, Book.class, WithComputed.class, OddName.class)) {
            assertThat(ValueTypes.shape(c).direct()).as(c.getName()).isNull();
        }
    }

    @Example
    void theClassesLeftToJsonbKeepTheirText() {
        OddName odd = new OddName();
        odd.xRay = "x";
        for (Object v : List.of(
                new Renamed("a", 1), new WithDouble("w", 0.1), new Book("978-3", "T"), new WithComputed(1234), odd)) {
            assertThat(CanonicalJson.of(v)).isEqualTo(LegacyCanonicalJson.of(v));
        }
    }

    @Property(tries = 1000)
    void scalarsAreTheJsonbText(@ForAll("scalars") Scalars v) {
        assertDirectIsJsonb(v, ValueTypes.shape(Scalars.class).direct());
    }

    @Property(tries = 500)
    void nestedValuesAreTheJsonbText(@ForAll("nested") Nested v) {
        assertDirectIsJsonb(v, ValueTypes.shape(Nested.class).direct());
    }

    @Property(tries = 300)
    void beansAreTheJsonbText(@ForAll("accounts") Account v) {
        assertDirectIsJsonb(v, ValueTypes.shape(Account.class).direct());
    }

    private static void assertDirectIsJsonb(Object v, DirectJson.Plan plan) {
        String jsonb = LegacyCanonicalJson.of(v);
        StringBuilder direct = new StringBuilder();
        assertThat(DirectJson.append(direct, v, plan)).isTrue();
        assertThat(direct.toString()).isEqualTo(jsonb);
        assertThat(CanonicalJson.of(v)).isEqualTo(jsonb);
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> odd = Arbitraries.strings()
                .ofMaxLength(8)
                .withChars("aZ\"\\/\n\r\t\b\f\u0000\u001f\u007f\u00e9\u2028\u2029\ud83d\ude00\ud800\udfff€ ");
        Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(6);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, odd),
                net.jqwik.api.Tuple.of(2, any),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("")));
    }

    @Provide
    Arbitrary<BigInteger> bigIntegers() {
        Arbitrary<BigInteger> wide = Arbitraries.bigIntegers()
                .between(new BigInteger("-1" + "0".repeat(40)), new BigInteger("1" + "0".repeat(40)));
        Arbitrary<BigInteger> special = Arbitraries.of(
                BigInteger.ZERO,
                BigInteger.ONE.negate(),
                BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE),
                BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE),
                BigInteger.TEN.pow(100),
                BigInteger.valueOf(1000));
        return Arbitraries.oneOf(wide, special);
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        Arbitrary<BigDecimal> scaled = Combinators.combine(
                        bigIntegers(), Arbitraries.integers().between(-30, 40))
                .as(BigDecimal::new);
        Arbitrary<BigDecimal> special = Arbitraries.of(
                        "1.0",
                        "1.00",
                        "1",
                        "1E+3",
                        "1000",
                        "1.000E+3",
                        "0",
                        "0.000",
                        "0E-10",
                        "0E+5",
                        "-0.000",
                        "-1.50",
                        "0.1",
                        "1E-7",
                        "123456789012345678901234567890.123456789",
                        "-9.99E+300",
                        "1E-400",
                        "12E+99")
                .map(BigDecimal::new);
        return Arbitraries.oneOf(scaled, special);
    }

    @Provide
    Arbitrary<Scalars> scalars() {
        Arbitrary<Scalars> first = Combinators.combine(
                        texts().injectNull(0.2),
                        Arbitraries.integers(),
                        Arbitraries.longs(),
                        Arbitraries.shorts(),
                        Arbitraries.bytes(),
                        Arbitraries.of(true, false),
                        Arbitraries.integers().injectNull(0.3),
                        Arbitraries.longs().injectNull(0.3))
                .as((s, i, l, sh, b, z, bi, bl) ->
                        new Scalars(s, i, l, sh, b, z, bi, bl, null, null, null, null, null));
        return Combinators.combine(
                        first,
                        Arbitraries.shorts().injectNull(0.3),
                        Arbitraries.bytes().injectNull(0.3),
                        Arbitraries.of(true, false).injectNull(0.3),
                        bigIntegers().injectNull(0.2),
                        decimals().injectNull(0.2))
                .as((f, bs, bb, bz, big, dec) -> new Scalars(
                        f.s(), f.i(), f.l(), f.sh(), f.b(), f.z(), f.boxedInt(), f.boxedLong(), bs, bb, bz, big, dec));
    }

    @Provide
    Arbitrary<Account> accounts() {
        return Combinators.combine(
                        texts().injectNull(0.2),
                        Arbitraries.longs(),
                        Arbitraries.of(true, false),
                        decimals().injectNull(0.3),
                        texts().injectNull(0.2).list().ofMaxSize(3).injectNull(0.2))
                .as((owner, balance, active, limit, notes) -> {
                    Account a = new Account();
                    a.setOwner(owner);
                    a.setBalance(balance);
                    a.setActive(active);
                    a.setLimit(limit);
                    a.setNotes(notes);
                    return a;
                });
    }

    private <V> Arbitrary<Map<String, V>> mapsOf(Arbitrary<V> values) {
        return Arbitraries.maps(texts(), values).ofMaxSize(3);
    }

    @Provide
    Arbitrary<Nested> nested() {
        Arbitrary<List<Scalars>> scalarLists = scalars().injectNull(0.1).list().ofMaxSize(3);
        Arbitrary<Nested> first = Combinators.combine(
                        scalars().injectNull(0.2),
                        scalarLists.injectNull(0.2),
                        mapsOf(decimals().injectNull(0.2)).injectNull(0.2),
                        texts().injectNull(0.1)
                                .list()
                                .ofMaxSize(3)
                                .list()
                                .ofMaxSize(3)
                                .injectNull(0.2),
                        Arbitraries.longs().injectNull(0.1).list().ofMaxSize(4).injectNull(0.2),
                        mapsOf(scalarLists.injectNull(0.1)).injectNull(0.2))
                .as((one, many, amounts, grid, ids, groups) ->
                        new Nested(one, many, amounts, grid, ids, groups, null, null, null, null, null, null));
        return Combinators.combine(
                        first,
                        texts().list().ofMaxSize(3).map(ArrayList::new).injectNull(0.2),
                        mapsOf(Arbitraries.integers().injectNull(0.2))
                                .map(LinkedHashMap::new)
                                .injectNull(0.2),
                        mapsOf(mapsOf(Arbitraries.of(true, false).injectNull(0.1)))
                                .map(HashMap::new)
                                .injectNull(0.2),
                        accounts().injectNull(0.2),
                        accounts().injectNull(0.1).list().ofMaxSize(2).injectNull(0.2),
                        texts().injectNull(0.2).map(Shouting::new).injectNull(0.2))
                .as((f, tags, counts, flags, account, accounts, shout) -> new Nested(
                        f.one(),
                        f.many(),
                        f.amounts(),
                        f.grid(),
                        f.ids(),
                        f.groups(),
                        tags,
                        counts,
                        flags,
                        account,
                        accounts,
                        shout));
    }
}
