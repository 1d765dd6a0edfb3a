package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
