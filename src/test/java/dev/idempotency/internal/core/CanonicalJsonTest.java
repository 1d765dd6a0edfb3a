package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.Currency;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    /** A JSON-B bean whose own field order differs from alphabetical. */
    public static class Order {
        public String zeta = "z";
        public Map<String, Integer> lines = new LinkedHashMap<>();
        public String alpha = "a";
    }

    /** Parameters of every writer, boxed and primitive, and types that go the general way. */
    @SuppressWarnings("unused")
    static void everyKind(
            String s,
            long l,
            int i,
            short sh,
            byte b,
            Long boxedLong,
            Integer boxedInt,
            boolean flag,
            Boolean boxedFlag,
            char c,
            double d,
            Object any,
            CharSequence text,
            List<String> list) {}

    @Test
    void argumentsWrittenByDeclaredTypeGiveTheSameTextAsTheGeneralWay() throws Exception {
        Class<?>[] types = Arrays.stream(CanonicalJsonTest.class.getDeclaredMethods())
                .filter(m -> m.getName().equals("everyKind"))
                .findFirst()
                .orElseThrow()
                .getParameterTypes();
        CanonicalJson.ArgumentWriter[] writers = CanonicalJson.writers(types);
        assertThat(Arrays.stream(writers).map(String::valueOf))
                .containsExactly(
                        "STRING",
                        "INTEGRAL",
                        "INTEGRAL",
                        "INTEGRAL",
                        "INTEGRAL",
                        "INTEGRAL",
                        "INTEGRAL",
                        "BOOLEAN",
                        "BOOLEAN",
                        "ANY",
                        "ANY",
                        "ANY",
                        "ANY",
                        "ANY");
        Object[][] calls = {
            {
                "a\"b\\c\n\u0001é",
                Long.MIN_VALUE,
                -7,
                (short) 3,
                (byte) -1,
                42L,
                null,
                true,
                false,
                'x',
                0.1,
                4200,
                "chars",
                List.of("z", "a")
            },
            {
                null,
                0L,
                0,
                (short) 0,
                (byte) 0,
                null,
                Integer.MAX_VALUE,
                false,
                null,
                '"',
                -0.0,
                null,
                new StringBuilder("sb"),
                null
            },
            {
                "",
                Long.MAX_VALUE,
                1,
                (short) -3,
                (byte) 127,
                -1L,
                -1,
                true,
                true,
                '\n',
                1e300,
                Map.of("b", 1, "a", 2),
                null,
                List.of()
            }
        };
        for (Object[] args : calls) {
            assertThat(CanonicalJson.ofArguments(args, writers)).isEqualTo(CanonicalJson.of(Arrays.asList(args)));
        }
        assertThat(CanonicalJson.ofArguments(
                        new Object[] {"k", 4200L}, CanonicalJson.writers(new Class<?>[] {String.class, long.class})))
                .isEqualTo("[\"k\",4200]");
    }

    @Test
    void arraysMayHoldNulls() {
        assertThat(CanonicalJson.of(new String[] {"a", null, "b"})).isEqualTo("[\"a\",null,\"b\"]");
        assertThat(CanonicalJson.of(new Object[] {null})).isEqualTo("[null]");
        assertThat(CanonicalJson.of(new String[] {"a", null})).isNotEqualTo(CanonicalJson.of(new String[] {"a"}));
    }

    @Test
    void mapOrderDoesNotMatter() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("b", 2);
        a.put("a", 1);
        Map<String, Object> b = new HashMap<>();
        b.put("a", 1);
        b.put("b", 2);
        assertThat(CanonicalJson.of(a)).isEqualTo(CanonicalJson.of(b)).isEqualTo("{\"a\":1,\"b\":2}");
    }

    @Test
    void beanFieldsAndNestedMapsAreSorted() {
        Order o1 = new Order();
        o1.lines.put("sku-2", 1);
        o1.lines.put("sku-1", 3);
        Order o2 = new Order();
        o2.lines.put("sku-1", 3);
        o2.lines.put("sku-2", 1);
        assertThat(CanonicalJson.of(o1))
                .isEqualTo(CanonicalJson.of(o2))
                .isEqualTo("{\"alpha\":\"a\",\"lines\":{\"sku-1\":3,\"sku-2\":1},\"zeta\":\"z\"}");
    }

    @Test
    void setOrderDoesNotMatterButListOrderDoes() {
        assertThat(CanonicalJson.of(new LinkedHashSet<>(List.of("b", "a"))))
                .isEqualTo(CanonicalJson.of(new HashSet<>(List.of("a", "b"))));
        assertThat(CanonicalJson.of(List.of("b", "a"))).isNotEqualTo(CanonicalJson.of(List.of("a", "b")));
    }

    @Test
    void numbersAreWrittenByValue() {
        assertThat(CanonicalJson.of(new BigDecimal("1.50"))).isEqualTo(CanonicalJson.of(new BigDecimal("1.5")));
        assertThat(CanonicalJson.of(1))
                .isEqualTo(CanonicalJson.of(1L))
                .isEqualTo(CanonicalJson.of(new BigDecimal("1.0")));
        assertThat(CanonicalJson.of(0.1)).isEqualTo("0.1000000000000000055511151231257827021181583404541015625");
        assertThat(CanonicalJson.of(Double.NaN)).isEqualTo("\"NaN\"");
    }

    @Test
    void stringsAreEscapedOneWayOnly() {
        assertThat(CanonicalJson.of("a\"b\\c\n\u0001é")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001é\"");
    }

    @Test
    void simpleTypesAndNulls() {
        UUID id = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertThat(CanonicalJson.of(Arrays.asList(null, true, 'x', id, Instant.EPOCH, Thread.State.NEW)))
                .isEqualTo(
                        "[null,true,\"x\",\"123e4567-e89b-12d3-a456-426614174000\",\"1970-01-01T00:00:00Z\",\"NEW\"]");
    }

    @Test
    void localesAndCurrenciesAreTheirCodesWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.FRANCE);
            String french = CanonicalJson.of(List.of(Locale.GERMANY, Currency.getInstance("EUR")));
            Locale.setDefault(Locale.US);
            assertThat(CanonicalJson.of(List.of(Locale.GERMANY, Currency.getInstance("EUR"))))
                    .isEqualTo(french)
                    .isEqualTo("[\"de-DE\",\"EUR\"]");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void keyTextIsPlainForSimpleValues() {
        assertThat(CanonicalJson.keyText("abc")).isEqualTo("abc");
        assertThat(CanonicalJson.keyText(42L)).isEqualTo("42");
        assertThat(CanonicalJson.keyText(Thread.State.NEW)).isEqualTo("NEW");
        assertThat(CanonicalJson.keyText(Map.of("k", 1))).isEqualTo("{\"k\":1}");
    }
}
