package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import jakarta.json.bind.annotation.JsonbTransient;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What state a key or fingerprint reads of a value, and what is refused when a method is planned. */
class ValueTypesTest {

    /** A value class JSON-B writes as {@code {}}. */
    public static final class Money {
        private final long cents;

        public Money(long cents) {
            this.cents = cents;
        }

        public long cents() {
            return cents;
        }
    }

    /** A record. */
    public record Receipt(String id, long cents) {}

    /** No instance state at all: every instance would be the same value. */
    public static final class Marker {}

    /** State JSON-B is told to skip: still state for the fingerprint. */
    public static final class Tagged {
        public String id;

        @JsonbTransient
        public String amount;

        Tagged(String id, String amount) {
            this.id = id;
            this.amount = amount;
        }
    }

    /** A Java transient field: not state. */
    public static final class Cached {
        private final String id;
        private final transient String cache;

        Cached(String id, String cache) {
            this.id = id;
            this.cache = cache;
        }
    }

    /** A value holding a stream. */
    public static final class Upload {
        private final String name;
        private final InputStream body;

        Upload(String name, InputStream body) {
            this.name = name;
            this.body = body;
        }
    }

    /** A value that may refer to itself. */
    public static final class Node {
        private final String name;
        private Node next;

        Node(String name) {
            this.name = name;
        }
    }

    /** A code: two enums implement it with constants of the same name. */
    public interface Code {}

    /** Card codes. */
    public enum CardCode implements Code {
        DECLINED
    }

    /** Bank codes. */
    public enum BankCode implements Code {
        DECLINED
    }

    /** A field declared as the interface. */
    public static final class Outcome {
        private final Code code;

        Outcome(Code code) {
            this.code = code;
        }
    }

    static class Api {
        @Idempotent(name = "t.outcome")
        public String outcome(@IdempotencyKey Outcome outcome) {
            return "ran";
        }

        @Idempotent(name = "t.thread")
        public void thread(@IdempotencyKey String id, Thread worker) {}

        @Idempotent(name = "t.marker")
        public void marker(@IdempotencyKey Marker marker) {}

        @Idempotent(name = "t.upload")
        public void upload(@IdempotencyKey String id, Upload upload) {}

        @Idempotent(name = "t.task")
        public void task(@IdempotencyKey String id, Runnable task) {}

        @Idempotent(name = "t.any")
        public String any(@IdempotencyKey String id, Object payload) {
            return "ran";
        }

        @Idempotent(name = "t.node")
        public String node(@IdempotencyKey String id, Node node) {
            return "ran";
        }

        @Idempotent(name = "t.tagged")
        public String tagged(@IdempotencyKey String id, Tagged payload) {
            return "ran";
        }

        @Idempotent(name = "t.cached")
        public String cached(@IdempotencyKey String id, Cached payload) {
            return "ran";
        }

        @Idempotent(name = "t.money")
        public Money money(@IdempotencyKey String id) {
            return new Money(1);
        }

        @Idempotent(name = "t.moneys")
        public CompletionStage<List<Money>> moneys(@IdempotencyKey String id) {
            return null;
        }

        @Idempotent(name = "t.receipt")
        public Receipt receipt(@IdempotencyKey String id) {
            return new Receipt(id, 1);
        }
    }

    private final AtomicInteger runs = new AtomicInteger();

    private static Method method(String name) {
        return Arrays.stream(Api.class.getMethods())
                .filter(m -> m.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static GuardedMethod plan(String name) {
        Method m = method(name);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        return GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
    }

    private Object call(GuardedMethod g, Object... args) throws Exception {
        return g.invoke(args, w -> "run-" + runs.incrementAndGet());
    }

    @Test
    void parametersWhoseStateCannotBeReadFailPlanningNamingMethodParameterTypeAndFix() {
        assertThatThrownBy(() -> plan("thread"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Api.class.getName() + "#thread")
                .hasMessageContaining("parameter 'worker'")
                .hasMessageContaining("java.lang.Thread")
                .hasMessageContaining("make it a record");
        assertThatThrownBy(() -> plan("marker"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Api.class.getName() + "#marker")
                .hasMessageContaining("parameter 'marker'")
                .hasMessageContaining(Marker.class.getName())
                .hasMessageContaining("no instance fields");
        assertThatThrownBy(() -> plan("upload"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("parameter 'upload'")
                .hasMessageContaining(Upload.class.getName() + ".body")
                .hasMessageContaining("java.io.InputStream");
        assertThatThrownBy(() -> plan("task"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("parameter 'task'")
                .hasMessageContaining("java.lang.Runnable");
    }

    @Test
    void aValueWithoutReadableStateMetAtCallTimeIsRefusedBeforeTheMethodRuns() {
        GuardedMethod g = plan("any");
        Runnable lambda = () -> {};
        assertThatThrownBy(() -> call(g, "k1", lambda))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("t.any")
                .hasMessageContaining("did not run")
                .hasMessageContaining("lambda");
        assertThatThrownBy(() -> call(g, "k2", new Object()))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("java.lang.Object");
        String captured = "state";
        Object anonymous = new Object() {
            @Override
            public String toString() {
                return captured;
            }
        };
        assertThatThrownBy(() -> call(g, "k3", anonymous))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("captured variables");
        assertThat(runs).hasValue(0);
    }

    @Test
    void aCycleBetweenInstancesIsRefusedBeforeTheMethodRuns() throws Exception {
        GuardedMethod g = plan("node");
        Node a = new Node("a");
        a.next = new Node("b");
        assertThat(call(g, "k1", a)).as("a chain without a cycle is fine").isEqualTo("run-1");
        a.next.next = a;
        assertThatThrownBy(() -> call(g, "k2", a))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("cycle");
        assertThat(runs).hasValue(1);
    }

    @Test
    void stateHiddenFromJsonbIsStillPartOfTheFingerprint() throws Exception {
        GuardedMethod g = plan("tagged");
        assertThat(call(g, "k", new Tagged("t", "100"))).isEqualTo("run-1");
        assertThatThrownBy(() -> call(g, "k", new Tagged("t", "999")))
                .as("a @JsonbTransient field is state: a changed amount is another payload")
                .isInstanceOf(IdempotencyKeyMismatchException.class);
    }

    @Test
    void javaTransientFieldsAreNotState() throws Exception {
        GuardedMethod g = plan("cached");
        assertThat(call(g, "k", new Cached("c", "x"))).isEqualTo("run-1");
        assertThat(call(g, "k", new Cached("c", "y")))
                .as("a transient field is left out: the same payload, replayed")
                .isEqualTo("run-1");
        assertThatThrownBy(() -> call(g, "k", new Cached("d", "x")))
                .isInstanceOf(IdempotencyKeyMismatchException.class);
    }

    @Test
    void enumConstantsOfTwoEnumsBehindOneInterfaceAreTwoKeys() throws Exception {
        GuardedMethod g = plan("outcome");
        assertThat(call(g, new Outcome(CardCode.DECLINED))).isEqualTo("run-1");
        assertThat(call(g, new Outcome(BankCode.DECLINED)))
                .as("BankCode.DECLINED is not CardCode.DECLINED")
                .isEqualTo("run-2");
        assertThat(call(g, new Outcome(CardCode.DECLINED))).isEqualTo("run-1");
    }

    @Test
    void jsonbMissesNamesEachFieldJsonbWouldNotWrite() {
        assertThat(ValueTypes.jsonbMisses(Money.class)).containsExactly(Money.class.getName() + ".cents");
        assertThat(ValueTypes.jsonbMisses(method("moneys").getGenericReturnType()))
                .containsExactly(Money.class.getName() + ".cents");
        assertThat(ValueTypes.jsonbMisses(Receipt.class)).isEmpty();
        assertThat(ValueTypes.jsonbMisses(Tagged.class))
                .as("@JsonbTransient state is left out on purpose")
                .isEmpty();
    }

    @Test
    void aReturnTypeWhoseStateJsonbDoesNotWriteFailsPlanning() {
        assertThatThrownBy(() -> plan("money"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Api.class.getName() + "#money")
                .hasMessageContaining(Money.class.getName() + ".cents")
                .hasMessageContaining("getter");
        assertThatThrownBy(() -> plan("moneys"))
                .as("T of CompletionStage<T>, through a list")
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Money.class.getName() + ".cents");
        assertThat(plan("receipt")).isNotNull();
    }
}
