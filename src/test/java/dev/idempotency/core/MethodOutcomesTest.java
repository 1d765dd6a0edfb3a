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

class MethodOutcomesTest {

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
    }

    private static MethodOutcomes outcomes(String name) throws NoSuchMethodException {
        Method m = Shapes.class.getMethod(name);
        return new MethodOutcomes(m);
    }

    private static final RecordKey KEY = RecordKey.of("op", "", "k");

    @Test
    void genericListComesBackEqualWithItsElementType() throws Exception {
        MethodOutcomes o = outcomes("lines");
        List<Line> lines = List.of(new Line("a", "1.10"), new Line("b", "2"));
        Object replayed = o.replay(o.value(lines), KEY);
        assertThat(replayed).isEqualTo(lines);
        assertThat(((List<?>) replayed).get(0)).isInstanceOf(Line.class);
    }

    @Test
    void mapsNullsVoidAndPrimitives() throws Exception {
        MethodOutcomes byId = outcomes("byId");
        Map<String, Line> m = Map.of("x", new Line("x", "3"));
        assertThat(byId.replay(byId.value(m), KEY)).isEqualTo(m);
        assertThat(byId.replay(byId.value(null), KEY)).isNull();
        MethodOutcomes nothing = outcomes("nothing");
        assertThat(new String(nothing.value(null), StandardCharsets.UTF_8)).isEqualTo("{\"t\":\"void\"}");
        assertThat(nothing.replay(nothing.value(null), KEY)).isNull();
        MethodOutcomes count = outcomes("count");
        assertThat(count.replay(count.value(7), KEY)).isEqualTo(7);
    }

    @Test
    void keptExceptionsAreRebuiltWithTheirTypeAndMessage() throws Exception {
        MethodOutcomes o = outcomes("count");
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
        MethodOutcomes o = outcomes("count");
        byte[] stored = o.exception(new Odd("declined", 51));
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining(Odd.class.getName())
                .hasMessageContaining("declined51");
    }

    @Test
    void anUnserializableResultIsStoredAsUnreplayableSoTheCallNeverRunsTwice() throws Exception {
        MethodOutcomes o = outcomes("loop");
        byte[] stored = o.value(new Loop());
        assertThat(new String(stored, StandardCharsets.UTF_8)).contains("unreplayable");
        assertThatThrownBy(() -> o.replay(stored, KEY))
                .isInstanceOf(IdempotencyReplayException.class)
                .hasMessageContaining("is not run again");
    }
}
