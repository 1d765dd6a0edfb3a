package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyReplayException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionStage;
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

        Optional<Line> maybeLine();

        OptionalInt maybeCount();

        CompletionStage<Optional<String>> laterText();
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

    /**
     * An empty optional is stored as JSON-B writes it, {@code null}, the form records written before
     * have too, and both forms of a stored null are read back as the empty value of the declared type.
     */
    @Test
    void anEmptyOptionalKeepsItsStoredFormAndReadsBackEmpty() throws Exception {
        OutcomeCodec line = outcomes("maybeLine");
        assertThat(new String(line.value(Optional.empty()), StandardCharsets.UTF_8))
                .isEqualTo("{\"t\":\"value\",\"v\":null}");
        assertThat(line.replay(line.value(Optional.empty()), KEY)).isEqualTo(Optional.empty());
        assertThat(line.replay("{\"v\":null,\"t\":\"value\"}".getBytes(StandardCharsets.UTF_8), KEY))
                .as("a stored null in another member order")
                .isEqualTo(Optional.empty());
        assertThat(line.replay(line.value(Optional.of(new Line("a", "1"))), KEY))
                .isEqualTo(Optional.of(new Line("a", "1")));
        OutcomeCodec count = outcomes("maybeCount");
        assertThat(count.replay(count.value(OptionalInt.empty()), KEY)).isEqualTo(OptionalInt.empty());
        assertThat(count.replay(count.value(OptionalInt.of(3)), KEY)).isEqualTo(OptionalInt.of(3));
        Method m = Shapes.class.getMethod("laterText");
        OutcomeCodec later =
                new OutcomeCodec(m, ((ParameterizedType) m.getGenericReturnType()).getActualTypeArguments()[0]);
        assertThat(later.replay(later.value(Optional.empty()), KEY)).isEqualTo(Optional.empty());
        assertThat(later.replay(later.value(Optional.of("x")), KEY)).isEqualTo(Optional.of("x"));
        OutcomeCodec byId = outcomes("byId");
        assertThat(byId.replay("{\"t\":\"value\",\"v\":null}".getBytes(StandardCharsets.UTF_8), KEY))
                .as("any other type: null")
                .isNull();
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
    }

    // --- results that JSON-B cannot read back are refused when planning -------------------------------

    /** Getters and an all-arguments constructor only: JSON-B writes it, but cannot create it again. */
    public static class AllArgs {
        private final String id;
        private final int cents;

        public AllArgs(String id, int cents) {
            this.id = id;
            this.cents = cents;
        }

        public String getId() {
            return id;
        }

        public int getCents() {
            return cents;
        }
    }

    public record Receipt(String id, BigDecimal amount, List<Line> lines) {}

    /** A record with a second constructor: Yasson uses a record's only constructor, or none. */
    public record TwoWays(String id) {
        public TwoWays() {
            this("none");
        }
    }

    /** Created through a @JsonbCreator factory. */
    public static final class Created {
        private final String id;

        private Created(String id) {
            this.id = id;
        }

        @jakarta.json.bind.annotation.JsonbCreator
        public static Created of(@jakarta.json.bind.annotation.JsonbProperty("id") String id) {
            return new Created(id);
        }

        public String getId() {
            return id;
        }
    }

    /** A bean whose no-argument constructor is private: Yasson does not call it. */
    public static class Hidden {
        public String id;

        private Hidden() {}
    }

    public interface Shape {
        String name();
    }

    public abstract static class AbstractShape {
        public String name;
    }

    /** A bean holding, deep down, an all-arguments class. */
    public static class Holder {
        public List<Map<String, AllArgs>> nested;
    }

    interface Results {
        AllArgs allArgs();

        Receipt receipt();

        TwoWays twoWays();

        Created created();

        Hidden hidden();

        Object anything();

        Shape shape();

        AbstractShape abstractShape();

        Number number();

        List<?> wildcards();

        @SuppressWarnings("rawtypes")
        List raw();

        Holder holder();

        Optional<Line> maybe();

        List<Shape> shapes();

        CompletionStage<AllArgs> laterAllArgs();

        CompletionStage<Line> laterLine();
    }

    private static OutcomeCodec codec(String name) throws NoSuchMethodException {
        return new OutcomeCodec(Results.class.getMethod(name));
    }

    @Test
    void aResultWithoutAUsableConstructorIsRefusedNamingTheMethodTypeAndFix() {
        assertThatThrownBy(() -> codec("allArgs"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Results.class.getName() + "#allArgs")
                .hasMessageContaining("AllArgs")
                .hasMessageContaining("no no-argument constructor")
                .hasMessageContaining("record")
                .hasMessageContaining("@JsonbCreator");
        assertThatThrownBy(() -> codec("hidden")).hasMessageContaining("private");
        assertThatThrownBy(() -> codec("twoWays")).hasMessageContaining("more than one constructor");
        assertThatThrownBy(() -> codec("holder"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("Holder.nested element value")
                .hasMessageContaining("AllArgs");
    }

    @Test
    void objectInterfacesAbstractClassesAndUndeclaredElementsAreRefused() {
        for (String name : List.of("anything", "shape", "abstractShape", "number", "wildcards", "raw", "shapes")) {
            assertThatThrownBy(() -> codec(name))
                    .as(name)
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(Results.class.getName() + "#" + name)
                    .hasMessageContaining("cannot replay its result");
        }
        assertThatThrownBy(() -> codec("shape"))
                .hasMessageContaining("interface")
                .hasMessageContaining("concrete");
    }

    @Test
    void aStageIsRefusedForItsValueType() throws Exception {
        Method m = Results.class.getMethod("laterAllArgs");
        Type t = ((java.lang.reflect.ParameterizedType) m.getGenericReturnType()).getActualTypeArguments()[0];
        assertThatThrownBy(() -> new OutcomeCodec(m, t))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("AllArgs of its returned stage");
    }

    @Test
    void recordsCreatorsBeansOptionalsAndStagesReplayEqualValuesOfTheirTypes() throws Exception {
        OutcomeCodec receipt = codec("receipt");
        Receipt r = new Receipt("r-1", new BigDecimal("10.50"), List.of(new Line("a", "1.10")));
        assertThat(receipt.replay(receipt.value(r), KEY)).isEqualTo(r);
        OutcomeCodec created = codec("created");
        assertThat(((Created) created.replay(created.value(Created.of("c-1")), KEY)).getId())
                .isEqualTo("c-1");
        OutcomeCodec maybe = codec("maybe");
        assertThat(maybe.replay(maybe.value(Optional.of(new Line("m", "2"))), KEY))
                .isEqualTo(Optional.of(new Line("m", "2")));
        Method m = Results.class.getMethod("laterLine");
        OutcomeCodec later = new OutcomeCodec(m, Line.class);
        assertThat(later.replay(later.value(new Line("l", "3")), KEY)).isEqualTo(new Line("l", "3"));
    }

    @Test
    void aStoredValueThatNoLongerReadsBackIsAReplayExceptionNotAProviderException() throws Exception {
        OutcomeCodec o = outcomes("lines");
        byte[] changed = "{\"t\":\"value\",\"v\":\"not a list\"}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> o.replay(changed, KEY))
                .isExactlyInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining("'op'")
                .hasMessageContaining("#" + KEY.hash())
                .hasMessageContaining("not run again")
                .hasCauseInstanceOf(RuntimeException.class);
        byte[] garbled = "{\"t\":\"value\",\"v\":[".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> o.replay(garbled, KEY)).isExactlyInstanceOf(IdempotencyReplayException.class);
    }

    // --- kept exceptions replay with their own state ----------------------------------------------------

    /** Keeps a code, with a fixed message: its (String) constructor does not take the message. */
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

    public enum Reason {
        LIMIT,
        FRAUD
    }

    /** Several kinds of field, and a superclass of its own with a field. */
    public static class Refused extends Declined {
        private final int attempts;
        private final Reason reason;
        private final BigDecimal amount;
        private transient Object notKept = new Object();

        public Refused(String message, String account, int attempts, Reason reason, BigDecimal amount) {
            super(message, account);
            this.attempts = attempts;
            this.reason = reason;
            this.amount = amount;
        }

        public Refused(String message) {
            this(message, null, 0, null, null);
        }
    }

    public static class Declined extends RuntimeException {
        final String account;

        Declined(String message, String account) {
            super(message);
            this.account = account;
        }
    }

    /** Only a no-argument constructor, which sets its message itself. */
    public static class Throttled extends Exception {
        private long retryAfterMillis;

        public Throttled() {
            super("throttled");
        }

        public Throttled(long retryAfterMillis) {
            this();
            this.retryAfterMillis = retryAfterMillis;
        }
    }

    /** A field of a type JSON-B cannot read back. */
    public static class Vague extends Exception {
        private final Object detail;

        public Vague(String message, Object detail) {
            super(message);
            this.detail = detail;
        }
    }

    interface Throwing {
        int decline() throws CardDeclined;

        int vague() throws Vague;

        int loose() throws Loose;
    }

    private static OutcomeCodec throwing(String name) throws NoSuchMethodException {
        return new OutcomeCodec(Throwing.class.getMethod(name));
    }

    @Test
    void aKeptExceptionComesBackWithItsOwnFieldsNotRebuiltFromTheMessageAlone() throws Exception {
        OutcomeCodec o = throwing("decline");
        byte[] stored = o.exception(new CardDeclined("05-51"));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isExactlyInstanceOf(CardDeclined.class)
                .hasMessage("card declined")
                .satisfies(e -> assertThat(((CardDeclined) e).code()).isEqualTo("05-51"));
    }

    @Test
    void everyKindOfFieldAndInheritedFieldsComeBack() throws Exception {
        OutcomeCodec o = throwing("decline");
        Refused first = new Refused("refused", "acc-9", 3, Reason.FRAUD, new BigDecimal("12.30"));
        Throwable replayed = catchThrowable(() -> o.replay(o.exception(first), KEY));
        assertThat(replayed).isExactlyInstanceOf(Refused.class).hasMessage("refused");
        assertThat(replayed)
                .usingRecursiveComparison()
                .comparingOnlyFields("account", "attempts", "reason", "amount")
                .isEqualTo(first);
        Throwable throttled = catchThrowable(() -> o.replay(o.exception(new Throttled(1500)), KEY));
        assertThat(throttled).isExactlyInstanceOf(Throttled.class).hasMessage("throttled");
        assertThat(((Throttled) throttled).retryAfterMillis).isEqualTo(1500);
    }

    @Test
    void theStoredFormOfAKeptExceptionIsPinned() throws Exception {
        OutcomeCodec o = throwing("decline");
        assertThat(new String(o.exception(new CardDeclined("05-51")), StandardCharsets.UTF_8))
                .isEqualTo("{\"t\":\"exception\",\"type\":\"" + CardDeclined.class.getName()
                        + "\",\"message\":\"card declined\",\"fields\":{\"code\":\"05-51\"}}");
        assertThat(new String(o.exception(new IOException("disk")), StandardCharsets.UTF_8))
                .isEqualTo("{\"t\":\"exception\",\"type\":\"java.io.IOException\",\"message\":\"disk\",\"fields\":{}}");
    }

    @Test
    void anExceptionStoredInTheOlderFormStillReplaysFromItsTypeAndMessage() throws Exception {
        OutcomeCodec o = throwing("decline");
        byte[] old = ("{\"t\":\"exception\",\"type\":\"java.io.IOException\",\"message\":\"disk\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> o.replay(old, KEY))
                .isExactlyInstanceOf(IOException.class)
                .hasMessage("disk");
    }

    @Test
    void aDeclaredExceptionWithAFieldThatCannotBeKeptIsRefusedWhenPlanning() {
        assertThatThrownBy(() -> throwing("vague"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Throwing.class.getName() + "#vague")
                .hasMessageContaining(Vague.class.getName())
                .hasMessageContaining("Vague.detail")
                .hasMessageContaining("transient");
    }

    /** Unchecked, so kept only when its transaction committed: not refused when planning, even declared. */
    public static class Loose extends RuntimeException {
        public final transient String note = "not kept";
        private Object detail;

        public Loose(String message) {
            super(message);
        }

        public Loose(String message, Object detail) {
            super(message);
            this.detail = detail;
        }
    }

    @Test
    void anUncheckedExceptionWithAFieldThatCannotBeKeptReplaysAsAReplayExceptionSayingWhy() throws Exception {
        OutcomeCodec o = throwing("loose");
        byte[] stored = o.exception(new Loose("lost", List.of("x")));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isExactlyInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining(Loose.class.getName() + ": lost")
                .hasMessageContaining("Loose.detail")
                .hasMessageContaining("transient");
    }

    @Test
    void anExceptionWhoseMessageNoConstructorReproducesIsAReplayException() throws Exception {
        OutcomeCodec o = outcomes("count");
        byte[] stored = o.exception(new Prefixed("05"));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isExactlyInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining("declined 05")
                .hasMessageContaining("Prefixed(String)");
    }

    /** Its (String) constructor builds the message from its argument: it cannot take the message back. */
    public static class Prefixed extends RuntimeException {
        public Prefixed(String code) {
            super("declined " + code);
        }
    }
}
