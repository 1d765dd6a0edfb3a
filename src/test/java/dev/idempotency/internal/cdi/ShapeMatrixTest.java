package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.internal.cdi.ShapeRows.Shape;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every argument shape, as a key and as a payload, through the CDI interceptor: values that differ in
 * one piece of state are two calls, equal values (other instances) are one, and a changed payload under
 * one key is a mismatch.
 */
@EnableWeld
class ShapeMatrixTest {

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), Shapes.class);

    @Inject
    Shapes shapes;

    static Stream<Shape<?>> shapes() {
        return ShapeRows.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    <T> void asKeyEqualValuesRunOnceAndAnyDifferenceRunsAgain(Shape<T> shape) {
        String first = shape.asKey().apply(shapes, shape.value().get());
        assertThat(shape.asKey().apply(shapes, shape.value().get()))
                .as("an equal " + shape + " (another instance) is the same key: replayed")
                .isEqualTo(first);
        assertThat(shape.asKey().apply(shapes, shape.other().get()))
                .as("a " + shape + " that differs in one piece of state is another key: it runs")
                .isNotEqualTo(first);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    <T> void asPayloadAnEqualValueReplaysAndAChangedOneIsAMismatch(Shape<T> shape) {
        String key = "k-" + shape.name() + "-" + System.nanoTime();
        String first = shape.asPayload().apply(shapes, key, shape.value().get());
        assertThat(shape.asPayload().apply(shapes, key, shape.value().get()))
                .as("an equal " + shape + " under the same key: replayed")
                .isEqualTo(first);
        assertThatThrownBy(
                        () -> shape.asPayload().apply(shapes, key, shape.other().get()))
                .as("a " + shape + " changed in one piece of state under the same key")
                .isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThat(shape.asPayload().apply(shapes, key + "-other", shape.other().get()))
                .as("the changed " + shape + " under its own key runs")
                .isNotEqualTo(first);
    }
}
