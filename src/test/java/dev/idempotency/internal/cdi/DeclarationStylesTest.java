package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @Idempotent} and {@code @IdempotencyKey} declared where CDI does not inherit interceptor
 * bindings from (an interface method, a default method, an overridden superclass method) guard the
 * bean exactly as on the class; overloads under a class-level name are separate operations; and
 * declarations that cannot be told apart fail the deployment.
 */
class DeclarationStylesTest {

    @AfterEach
    void resetConfig() {
        TestConfig.use(Map.of());
    }

    private static String key() {
        return "k-" + System.nanoTime();
    }

    /** Declared on the interface only, with the key parameter marked there too. */
    public interface Notifier {
        @Idempotent(required = true)
        int notifyProvider(@IdempotencyKey String id);
    }

    @ApplicationScoped
    public static class NotifierBean implements Notifier {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public int notifyProvider(String id) {
            return runs.incrementAndGet();
        }

        int runs() {
            return runs.get();
        }
    }

    /** A default method, not overridden by the bean. */
    public interface Greeter {
        AtomicInteger greetings();

        @Idempotent
        default int greet(@IdempotencyKey String id) {
            return greetings().incrementAndGet();
        }
    }

    @ApplicationScoped
    public static class GreeterBean implements Greeter {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public AtomicInteger greetings() {
            return runs;
        }
    }

    /** Declared on a superclass method that the bean overrides. */
    public static class BaseSender {
        @Idempotent
        public int send(@IdempotencyKey String id) {
            throw new AssertionError("overridden");
        }
    }

    @ApplicationScoped
    public static class OverridingSender extends BaseSender {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public int send(String id) {
            return runs.incrementAndGet();
        }
    }

    /** Overloads under one class-level name, and a method that is not overloaded. */
    @ApplicationScoped
    @Idempotent(name = "refunds")
    public static class Refunds {
        final AtomicInteger runs = new AtomicInteger();

        public String refund(@IdempotencyKey String id) {
            return "full-" + runs.incrementAndGet();
        }

        public String refund(@IdempotencyKey String id, int cents) {
            return "partial-" + cents + "-" + runs.incrementAndGet();
        }

        public String cancel(@IdempotencyKey String id) {
            return "cancel-" + runs.incrementAndGet();
        }
    }

    @Test
    void interfaceMethodIsGuardedWithItsKeyAndMembers() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), NotifierBean.class).initialize()) {
            Notifier notifier = c.select(Notifier.class).get();
            NotifierBean bean = c.select(NotifierBean.class).get();
            String id = key();
            assertThat(notifier.notifyProvider(id)).isEqualTo(1);
            assertThat(notifier.notifyProvider(id)).as("the repeat replays").isEqualTo(1);
            assertThat(bean.runs()).as("one run for one id").isEqualTo(1);
            assertThat(notifier.notifyProvider(key()))
                    .as("the key is the interface's @IdempotencyKey parameter: another id runs")
                    .isEqualTo(2);
            assertThatThrownBy(() -> notifier.notifyProvider(" "))
                    .as("the interface's required = true applies")
                    .isInstanceOf(IdempotencyKeyMissingException.class);
        }
    }

    /** A generic interface: the bean's method has other parameter types than the declaration's erasure. */
    public interface Handler<T> {
        @Idempotent
        int handle(@IdempotencyKey T id);
    }

    @ApplicationScoped
    public static class StringHandler implements Handler<String> {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public int handle(String id) {
            return runs.incrementAndGet();
        }
    }

    @Test
    void genericInterfaceMethodIsGuarded() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), StringHandler.class).initialize()) {
            StringHandler handler = c.select(StringHandler.class).get();
            String id = key();
            assertThat(handler.handle(id)).isEqualTo(1);
            assertThat(handler.handle(id)).as("the repeat replays").isEqualTo(1);
            assertThat(handler.handle(key())).as("another id runs").isEqualTo(2);
        }
    }

    @Test
    void defaultMethodIsGuarded() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), GreeterBean.class).initialize()) {
            GreeterBean bean = c.select(GreeterBean.class).get();
            String id = key();
            assertThat(bean.greet(id)).isEqualTo(1);
            assertThat(bean.greet(id)).as("the repeat replays").isEqualTo(1);
            assertThat(bean.greet(key())).as("another id runs").isEqualTo(2);
        }
    }

    @Test
    void overriddenSuperclassMethodIsGuarded() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), OverridingSender.class).initialize()) {
            OverridingSender sender = c.select(OverridingSender.class).get();
            String id = key();
            assertThat(sender.send(id)).isEqualTo(1);
            assertThat(sender.send(id)).as("the repeat replays").isEqualTo(1);
            assertThat(sender.send(key())).as("another id runs").isEqualTo(2);
        }
    }

    @Test
    void overloadsUnderOneClassNameAreSeparateOperations() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), Refunds.class).initialize()) {
            Refunds refunds = c.select(Refunds.class).get();
            String id = key();
            assertThat(refunds.refund(id)).isEqualTo("full-1");
            assertThat(refunds.refund(id, 5))
                    .as("the other overload with the same key value runs, not replays the first")
                    .isEqualTo("partial-5-2");
            assertThat(refunds.refund(id))
                    .as("each overload replays its own outcome")
                    .isEqualTo("full-1");
            assertThat(refunds.refund(id, 5)).isEqualTo("partial-5-2");
            assertThat(c.select(IdempotencyRuntime.class).get().plannedOperations())
                    .as("overloads are told apart by parameter types; a method that is not overloaded"
                            + " keeps its plain name")
                    .contains("refunds.refund(String)", "refunds.refund(String,int)", "refunds.cancel");
        }
    }

    @ApplicationScoped
    public static class FirstShipper {
        @Idempotent(name = "ship")
        public String ship(@IdempotencyKey String id) {
            return "first";
        }
    }

    @ApplicationScoped
    public static class SecondShipper {
        @Idempotent(name = "ship")
        public String ship(@IdempotencyKey String id) {
            return "second";
        }
    }

    @Test
    void twoOperationsWithOneNameFailTheDeployment() {
        assertThatThrownBy(() -> WeldBoot.weld(Map.of(), FirstShipper.class, SecondShipper.class)
                        .initialize()
                        .close())
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("'ship'")
                .hasMessageContaining(FirstShipper.class.getName() + "#ship(String)")
                .hasMessageContaining(SecondShipper.class.getName() + "#ship(String)")
                .hasMessageContaining("@Idempotent(name = ...)");
    }

    @Test
    void oneMethodNameConfiguredForTwoOverloadsFailsTheDeployment() {
        Map<String, String> config = Map.of(Refunds.class.getName() + "/refund/Idempotent/name", "refund");
        assertThatThrownBy(
                        () -> WeldBoot.weld(config, Refunds.class).initialize().close())
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("'refund'")
                .hasMessageContaining("#refund(String)")
                .hasMessageContaining("#refund(String,int)");
    }

    public interface Pricing {
        @Idempotent(ttl = "PT1H")
        String quote(@IdempotencyKey String id);
    }

    public interface Quoting {
        @Idempotent(ttl = "PT2H")
        String quote(@IdempotencyKey String id);
    }

    @ApplicationScoped
    public static class AmbiguousQuotes implements Pricing, Quoting {
        @Override
        public String quote(String id) {
            return "q";
        }
    }

    @Test
    void twoDifferentInterfaceDeclarationsFailTheDeployment() {
        assertThatThrownBy(() -> WeldBoot.weld(Map.of(), AmbiguousQuotes.class)
                        .initialize()
                        .close())
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(Pricing.class.getName() + "#quote")
                .hasMessageContaining(Quoting.class.getName() + "#quote")
                .hasMessageContaining("put @Idempotent on " + AmbiguousQuotes.class.getName() + "#quote");
    }

    /** The class's own declaration wins over the interface's, whole. */
    @ApplicationScoped
    public static class ClassWins implements Notifier {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        @Idempotent(name = "class-wins")
        public int notifyProvider(String id) {
            return runs.incrementAndGet();
        }
    }

    @Test
    void theClassDeclarationWinsOverTheInterfaceDeclaration() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), ClassWins.class).initialize()) {
            ClassWins bean = c.select(ClassWins.class).get();
            assertThat(c.select(IdempotencyRuntime.class).get().plannedOperations())
                    .contains("class-wins");
            String id = key();
            assertThat(bean.notifyProvider(id)).isEqualTo(1);
            assertThat(bean.notifyProvider(id))
                    .as("guarded, keyed by the interface's parameter")
                    .isEqualTo(1);
            assertThat(bean.notifyProvider(" "))
                    .as("the interface's required = true does not apply: the class's annotation wins whole")
                    .isEqualTo(2);
        }
    }
}
