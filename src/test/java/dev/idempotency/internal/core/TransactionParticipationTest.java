package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.JoiningStore;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transaction participation is an operation setting: resolved from the annotation and the usual
 * per-method keys, and refused at deployment where the store cannot join or two methods of one
 * operation disagree.
 */
class TransactionParticipationTest {

    static class Orders {
        @Idempotent(name = "orders.place")
        public void place(String id) {}

        @Idempotent(name = "orders.ship", transaction = Participation.JOINED)
        public void ship(String id) {}
    }

    private static final String CLS = Orders.class.getName();

    private static OperationPolicy resolve(String methodName, Map<String, String> config) throws Exception {
        Method m = Orders.class.getMethod(methodName, String.class);
        return new PolicyResolver(ConfigLookup.of(config)).resolve(m, m.getAnnotation(Idempotent.class));
    }

    static Stream<Arguments> settings() {
        return Stream.of(
                Arguments.of("place", Map.of(), Participation.SEPARATE),
                Arguments.of("ship", Map.of(), Participation.JOINED),
                Arguments.of("place", Map.of("Idempotent/transaction", "joined"), Participation.JOINED),
                Arguments.of("place", Map.of(CLS + "/Idempotent/transaction", "JOINED"), Participation.JOINED),
                Arguments.of("place", Map.of(CLS + "/place/Idempotent/transaction", " Joined "), Participation.JOINED),
                Arguments.of("ship", Map.of(CLS + "/ship/Idempotent/transaction", "separate"), Participation.SEPARATE),
                Arguments.of(
                        "ship",
                        Map.of("Idempotent/transaction", "joined", CLS + "/ship/Idempotent/transaction", "separate"),
                        Participation.SEPARATE),
                Arguments.of("place", Map.of(CLS + "/ship/Idempotent/transaction", "joined"), Participation.SEPARATE));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void theMostSpecificSettingWins(String method, Map<String, String> config, Participation expected)
            throws Exception {
        OperationPolicy policy = resolve(method, config);
        assertThat(policy.transaction()).isEqualTo(expected);
        assertThat(policy.guarded().transaction()).isEqualTo(expected);
        assertThat(policy.guarded().name()).isEqualTo(policy.name());
    }

    @Test
    void anInvalidValueNamesTheKeyAndTheChoices() {
        String key = CLS + "/place/Idempotent/transaction";
        assertThatThrownBy(() -> resolve("place", Map.of(key, "sometimes")))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("'sometimes'")
                .hasMessageContaining("SEPARATE")
                .hasMessageContaining("JOINED");
    }

    @Test
    void aStoreThatCannotJoinRefusesJoinedOperationsAtTheDeploymentCheck() throws Exception {
        IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore());
        engine.planned(resolve("place", Map.of()), "CDI");
        assertThatCode(() -> engine.checkTransactions(Map.of("POST /refunds", Participation.SEPARATE)))
                .doesNotThrowAnyException();
        engine.planned(resolve("ship", Map.of()), "CDI");
        assertThatThrownBy(() -> engine.checkTransactions(Map.of("POST /refunds", Participation.JOINED)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("[POST /refunds, orders.ship]")
                .hasMessageContaining("MemoryIdempotencyStore")
                .hasMessageContaining("set their transaction to separate");
    }

    @Test
    void aStoreThatCanJoinAcceptsThem() throws Exception {
        IdempotencyEngine engine = new IdempotencyEngine(new JoiningStore(new MemoryIdempotencyStore()));
        engine.planned(resolve("ship", Map.of()), "CDI");
        assertThatCode(() -> engine.checkTransactions(Map.of("POST /refunds", Participation.JOINED)))
                .doesNotThrowAnyException();
        assertThat(engine.operations()).containsEntry("orders.ship", Participation.JOINED);
    }

    @Test
    void twoMethodsOfOneOperationMustAgree() throws Exception {
        IdempotencyEngine engine = new IdempotencyEngine(new JoiningStore(new MemoryIdempotencyStore()));
        OperationPolicy ship = resolve("ship", Map.of());
        engine.planned(ship, "CDI");
        assertThatCode(() -> engine.planned(ship, "HTTP")).doesNotThrowAnyException();
        assertThatThrownBy(() -> engine.planned(resolve("place", Map.of()).named("orders.ship"), "HTTP"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'orders.ship'")
                .hasMessageContaining("must agree");
        assertThatThrownBy(() -> engine.checkTransactions(Map.of("orders.ship", Participation.SEPARATE)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("must agree");
    }

    @Test
    void theSpiDefaultsRefuseAJoinedCallOnAStoreThatDoesNotOverrideThem() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore();
        var joined = new dev.idempotency.spi.GuardedOperation("orders.ship", Participation.JOINED);
        assertThatThrownBy(() -> store.claim(joined, "k", "o", "fp", java.time.Duration.ofMinutes(1)))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("'orders.ship'");
        assertThat(store.read("k")).isEmpty();
    }
}
