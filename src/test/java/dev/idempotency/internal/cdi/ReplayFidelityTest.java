package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * A repeat hands back what the first call returned or threw, of the declared type and with its state;
 * a result that could not be handed back fails the deployment instead.
 */
@EnableWeld
class ReplayFidelityTest {

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), Replays.class);

    private Replays replays() {
        return weld.select(Replays.class).get();
    }

    private static String key() {
        return "r-" + System.nanoTime();
    }

    @Test
    void recordsAndBeansReplayEqualValues() {
        Replays r = replays();
        String id = key();
        Replays.Receipt first = r.receipt(id);
        int runs = r.runs();
        assertThat(r.receipt(id)).isEqualTo(first);
        Replays.Bill bill = r.bill(id);
        Replays.Bill again = r.bill(id);
        assertThat(again.getId()).isEqualTo(bill.getId());
        assertThat(again.getCents()).isEqualTo(bill.getCents());
        assertThat(r.runs()).isEqualTo(runs + 1);
    }

    @Test
    void collectionsMapsOptionalsAndStagesReplayAsTheirDeclaredTypes() throws Exception {
        Replays r = replays();
        String id = key();
        assertThat(r.lines(id)).isEqualTo(r.lines(id)).first().isInstanceOf(OrderLine.class);
        assertThat(r.byId(id)).isEqualTo(r.byId(id));
        assertThat(r.byId(id).get(id)).isInstanceOf(OrderLine.class);
        assertThat(r.maybe(id)).isEqualTo(r.maybe(id)).get().isInstanceOf(OrderLine.class);
        OrderLine later = r.later(id).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(r.later(id).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .isInstanceOf(OrderLine.class)
                .isEqualTo(later);
        assertThat(r.runs()).isEqualTo(4);
    }

    /**
     * An empty optional comes back empty, not as {@code null} (whose {@code isPresent()} throws), and a
     * present one with its value, for an {@code Optional} of a class, a string and a list, the primitive
     * optionals, and a stage's {@code Optional}; each key runs once.
     */
    @Test
    void emptyAndPresentOptionalsReplayAsThemselves() throws Exception {
        Replays r = replays();
        String id = key();
        int calls = 0;
        SoftAssertions softly = new SoftAssertions();
        for (boolean present : new boolean[] {false, true}) {
            String k = id + "-" + present;
            assertReplays(softly, "Optional<OrderLine>", present, r.line(k, present), r.line(k, present));
            assertReplays(softly, "Optional<String>", present, r.text(k, present), r.text(k, present));
            assertReplays(
                    softly, "Optional<List<OrderLine>>", present, r.someLines(k, present), r.someLines(k, present));
            assertReplays(softly, "OptionalInt", present, r.count(k, present), r.count(k, present));
            assertReplays(softly, "OptionalLong", present, r.cents(k, present), r.cents(k, present));
            assertReplays(softly, "OptionalDouble", present, r.rate(k, present), r.rate(k, present));
            assertReplays(
                    softly,
                    "CompletionStage<Optional<OrderLine>>",
                    present,
                    r.laterLine(k, present).toCompletableFuture().get(10, TimeUnit.SECONDS),
                    r.laterLine(k, present).toCompletableFuture().get(10, TimeUnit.SECONDS));
            calls += 7;
        }
        softly.assertAll();
        assertThat(r.runs()).as("one run per key").isEqualTo(calls);
        Optional<OrderLine> line = r.line(id + "-true", true);
        assertThat(line).get().isInstanceOf(OrderLine.class);
    }

    private static void assertReplays(
            SoftAssertions softly, String type, boolean present, Object first, Object repeat) {
        String what = type + (present ? " present" : " empty");
        softly.assertThat(first).as(what + ", first call").isNotNull();
        softly.assertThat(repeat).as(what + ", repeat").isNotNull().isEqualTo(first);
        softly.assertThat(String.valueOf(repeat))
                .as(what + ", repeat")
                .isEqualTo(String.valueOf(first))
                .contains(present ? "[" : ".empty");
    }

    @Test
    void aKeptExceptionReplaysWithItsOwnFieldsAndMessage() {
        Replays r = replays();
        String ref = key();
        Replays.CardDeclined first = catchDeclined(r, ref);
        Replays.CardDeclined repeat = catchDeclined(r, ref);
        assertThat(repeat).isNotSameAs(first).hasMessage(first.getMessage());
        assertThat(repeat.code()).isEqualTo(first.code()).startsWith("05-");
        assertThat(r.runs()).isEqualTo(1);
    }

    private static Replays.CardDeclined catchDeclined(Replays r, String ref) {
        try {
            r.decline(ref);
        } catch (Replays.CardDeclined e) {
            return e;
        }
        throw new AssertionError("decline(" + ref + ") returned instead of throwing CardDeclined");
    }

    @Test
    void resultsThatCannotBeReadBackFailTheDeploymentNamingMethodTypeAndFix() {
        assertDeploymentFails(
                UnreplayableResults.AllArgsService.class,
                UnreplayableResults.AllArgsService.class.getName() + "#quote",
                "Quote",
                "no-argument constructor",
                "@JsonbCreator");
        assertDeploymentFails(
                UnreplayableResults.ObjectService.class,
                UnreplayableResults.ObjectService.class.getName() + "#anything",
                "Object",
                "concrete type");
        assertDeploymentFails(
                UnreplayableResults.InterfaceService.class,
                UnreplayableResults.InterfaceService.class.getName() + "#serializable",
                "interface");
        assertDeploymentFails(
                UnreplayableResults.StageService.class,
                UnreplayableResults.StageService.class.getName() + "#later",
                "returned stage",
                "Quote");
    }

    private static void assertDeploymentFails(Class<?> bean, String... phrases) {
        assertThatThrownBy(() -> {
                    try (WeldContainer c = WeldBoot.weld(Map.of(), bean).initialize()) {
                        c.isRunning();
                    }
                })
                .as(bean.getSimpleName())
                .isInstanceOf(DeploymentException.class)
                .satisfies(e -> {
                    StringBuilder all = new StringBuilder();
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        all.append(t.getMessage()).append('\n');
                    }
                    for (String phrase : phrases) {
                        assertThat(all.toString()).as(bean.getSimpleName()).contains(phrase);
                    }
                });
    }
}
