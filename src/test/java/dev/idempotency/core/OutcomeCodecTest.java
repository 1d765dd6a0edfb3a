package dev.idempotency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyReplayException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutcomeCodecTest {

    /** A JSON-B friendly DTO with value equality. */
    public static class Line {
        public String sku;
        public BigDecimal price;

        public Line() {}

        Line(String sku, String price) {
            this.sku = sku;
            this.price = new BigDecimal(price);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Line l && l.sku.equals(sku) && l.price.equals(price);
        }

        @Override
        public int hashCode() {
            return sku.hashCode();
        }
    }

    /** A checked exception with only a (String, int) constructor: cannot be rebuilt. */
    public static class Odd extends Exception {
        public Odd(String m, int code) {
            super(m + code);
        }
    }

    /** Not serializable by JSON-B: a self-reference. */
    public static class Loop {
        public Loop self = this;
    }

    interface Shapes {
        List<Line> lines();

        Map<String, Line> byId();

        void nothing();

        int count();

        Loop loop();

        String text();

        Long boxedLong();

        boolean flag();

        Object anything();
    }

    private static OutcomeCodec outcomes(String name) throws NoSuchMethodException {
        Method m = Shapes.class.getMethod(name);
        return new OutcomeCodec(m);
    }

    private static final RecordKey KEY = RecordKey.of("op", "", "k");

    @Test
    void genericListComesBackEqualWithItsElementType() throws Exception {
        OutcomeCodec o = outcomes("lines");
        List<Line> lines = List.of(new Line("a", "1.10"), new Line("b", "2"));
        Object replayed = o.replay(o.value(lines), KEY);
        assertThat(replayed).isEqualTo(lines);
        assertThat(((List<?>) replayed).get(0)).isInstanceOf(Line.class);
    }

    @Test
    void mapsNullsVoidAndPrimitives() throws Exception {
        OutcomeCodec byId = outcomes("byId");
        Map<String, Line> m = Map.of("x", new Line("x", "3"));
        assertThat(byId.replay(byId.value(m), KEY)).isEqualTo(m);
        assertThat(byId.replay(byId.value(null), KEY)).isNull();
        OutcomeCodec nothing = outcomes("nothing");
        assertThat(new String(nothing.value(null), StandardCharsets.UTF_8)).isEqualTo("{\"t\":\"void\"}");
        assertThat(nothing.replay(nothing.value(null), KEY)).isNull();
        OutcomeCodec count = outcomes("count");
        assertThat(count.replay(count.value(7), KEY)).isEqualTo(7);
    }

    @Test
    void keptExceptionsAreRebuiltWithTheirTypeAndMessage() throws Exception {
        OutcomeCodec o = outcomes("count");
        byte[] stored = o.exception(new IOException("card declined"));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isExactlyInstanceOf(IOException.class)
                .hasMessage("card declined");
        byte[] unchecked = o.exception(new IllegalArgumentException("bad amount"));
        assertThatThrownBy(() -> o.replay(unchecked, KEY)).isExactlyInstanceOf(IllegalArgumentException.class);
        byte[] error = o.exception(new StackOverflowError());
        assertThatThrownBy(() -> o.replay(error, KEY)).isExactlyInstanceOf(StackOverflowError.class);
    }

    @Test
    void anExceptionThatCannotBeBuiltIsReplayedAsAReplayExceptionNamingIt() throws Exception {
        OutcomeCodec o = outcomes("count");
        byte[] stored = o.exception(new Odd("declined", 51));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining(Odd.class.getName())
                .hasMessageContaining("declined51");
    }

    @Test
    void anUnserializableResultIsStoredAsUnreplayableSoTheCallNeverRunsTwice() throws Exception {
        OutcomeCodec o = outcomes("loop");
        byte[] stored = o.value(new Loop());
        assertThat(new String(stored, StandardCharsets.UTF_8)).contains("unreplayable");
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining("is not run again");
    }

    /** Strings with every kind of character a JSON string can hold, escaped or not. */
    private static List<String> awkwardStrings() {
        java.util.Random random = new java.util.Random(42);
        List<String> strings = new java.util.ArrayList<>(List.of(
                "",
                "order-1",
                "quote \" backslash \\ slash /",
                "tab\tline\nreturn\r",
                "\u0000\u001f\u007f",
                "naïve ☃ 日本 \ud83d\ude00",
                "\"",
                "\\",
                "\\u0041"));
        char[] alphabet = "ab\"\\/\b\f\n\r\t\u0000\u0001\u001fé☃\ud83d\ude00 u0".toCharArray();
        for (int i = 0; i < 2_000; i++) {
            StringBuilder sb = new StringBuilder();
            int length = random.nextInt(12);
            for (int k = 0; k < length; k++) {
                sb.append(alphabet[random.nextInt(alphabet.length)]);
            }
            strings.add(sb.toString());
        }
        return strings;
    }

    @Test
    void stringResultsTakeTheDirectPathBothWaysAndAgreeWithJsonB() throws Exception {
        OutcomeCodec o = outcomes("text");
        jakarta.json.bind.Jsonb jsonb = CanonicalJson.jsonb();
        for (String s : awkwardStrings()) {
            if (!s.equals(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))) {
                continue; // a lone surrogate does not survive UTF-8, with or without the direct path
            }
            byte[] stored = o.value(s);
            String text = new String(stored, StandardCharsets.UTF_8);
            String json = text.substring("{\"t\":\"value\",\"v\":".length(), text.length() - 1);
            // what this version writes, JSON-B (an older version of this library) reads back...
            assertThat(jsonb.fromJson(json, String.class))
                    .as("JSON-B reading %s", json)
                    .isEqualTo(s);
            // ...and what JSON-B wrote (records stored by an older version) this version reads back.
            byte[] writtenByJsonb =
                    ("{\"t\":\"value\",\"v\":" + jsonb.toJson(s, String.class) + "}").getBytes(StandardCharsets.UTF_8);
            assertThat(o.replay(writtenByJsonb, KEY)).isEqualTo(s);
            assertThat(o.replay(stored, KEY)).isEqualTo(s);
        }
    }

    @Test
    void theStringReaderHandsAnythingButOneWellFormedLiteralBackToJsonB() {
        assertThat(CanonicalJson.readStringLiteral("\"a\\u0041\\n\"")).isEqualTo("aA\n");
        assertThat(CanonicalJson.readStringLiteral("\"a\",\"b\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("\"a\\\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("\"\\u00zz\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("\"\\u00\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("\"\\x\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("\"")).isNull();
        assertThat(CanonicalJson.readStringLiteral("12")).isNull();
    }

    @Test
    void integralAndBooleanResultsRoundTripAndOtherTypesStillGoThroughJsonB() throws Exception {
        OutcomeCodec boxed = outcomes("boxedLong");
        for (long v : new long[] {0, -1, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertThat(new String(boxed.value(v), StandardCharsets.UTF_8))
                    .isEqualTo("{\"t\":\"value\",\"v\":" + v + "}");
            assertThat(boxed.replay(boxed.value(v), KEY)).isEqualTo(v);
        }
        assertThat(boxed.replay(boxed.value(null), KEY)).isNull();
        OutcomeCodec flag = outcomes("flag");
        assertThat(flag.replay(flag.value(true), KEY)).isEqualTo(true);
        assertThat(flag.replay(flag.value(false), KEY)).isEqualTo(false);
        // A method declared to return Object is written with the value's type (JSON-B would write {}), and
        // read back as JSON-B reads it into Object.
        OutcomeCodec anything = outcomes("anything");
        Object replayed = anything.replay(anything.value("text"), KEY);
        assertThat(replayed).isEqualTo(CanonicalJson.jsonb().fromJson("\"text\"", Object.class));
    }
}
