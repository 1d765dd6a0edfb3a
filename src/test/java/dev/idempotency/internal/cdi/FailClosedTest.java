package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.WeldInitiator;
import org.junit.jupiter.api.Test;

/**
 * A guarded method is guarded, or the application does not start: a container that skipped one of the
 * guard's interceptors (as Weld does, with an INFO line, for one whose class needs a type it cannot
 * load) or that ran without the library's portable extension (CDI Lite) is refused, naming the method
 * and what is missing, instead of running the method unguarded.
 */
class FailClosedTest {

    @Test
    void aSkippedGuardInterceptorFailsTheDeploymentNamingTheMethod() {
        for (Class<?> skipped : new Class<?>[] {IdempotentInterceptor.class, IdempotentWorkInterceptor.class}) {
            Weld weld = WeldBoot.weld(Map.of(), Payments.class).addExtension(new Skipping(skipped));
            assertThatThrownBy(weld::initialize)
                    .as("without %s", skipped.getSimpleName())
                    .hasMessageContaining("FailClosedTest$Payments#charge")
                    .hasMessageContaining("would run unguarded")
                    .hasMessageContaining(skipped.getName());
        }
    }

    @Test
    void withBothInterceptorsTheMethodRunsOncePerKey() {
        try (WeldContainer c = WeldBoot.weld(Map.of(), Payments.class).initialize()) {
            Payments payments = c.select(Payments.class).get();
            String key = "o-" + System.nanoTime();
            payments.charge(key, 100);
            payments.charge(key, 100);
            assertThat(payments.runs()).isEqualTo(1);
        }
    }

    @Test
    void aContainerWithoutThePortableExtensionDoesNotStart() {
        TestConfig.use(Map.of());
        Weld weld = WeldInitiator.createWeld()
                .addBeanClasses(
                        IdempotentInterceptor.class,
                        IdempotentWorkInterceptor.class,
                        IdempotencyRuntime.class,
                        FilteredRequest.class,
                        Payments.class);
        assertThatThrownBy(weld::initialize)
                .hasRootCauseInstanceOf(IdempotencyConfigurationException.class)
                .rootCause()
                .hasMessageContaining(IdempotencyExtension.class.getName())
                .hasMessageContaining("did not run")
                .hasMessageContaining("not started");
    }

    /** A guarded CDI method, counting its runs. */
    @ApplicationScoped
    public static class Payments {
        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @Idempotent(name = "fail-closed.charge")
        public long charge(@IdempotencyKey String orderId, long cents) {
            runs.incrementAndGet();
            return cents;
        }
    }

    /** Vetoes one interceptor, as a container does that cannot load a type the interceptor needs. */
    public static final class Skipping implements Extension {
        private final Class<?> skipped;

        Skipping(Class<?> skipped) {
            this.skipped = skipped;
        }

        <T> void veto(@Observes ProcessAnnotatedType<T> pat) {
            if (pat.getAnnotatedType().getJavaClass() == skipped) {
                pat.veto();
            }
        }
    }
}
