package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The library on the Jakarta EE Core Profile plus MicroProfile Config, as on Helidon MP or Quarkus
 * without extras: no Servlet, no JTA, no EJB, no Concurrency, no JPA. Its jar, discovered as a bean
 * archive the way a runtime discovers it, starts and guards. Runs in its own surefire execution whose
 * class path has {@code jakarta.jakartaee-core-api} instead of the full platform API (pom.xml,
 * execution {@code core-profile-only}); the default execution skips it.
 */
class CoreProfileTest {

    @Test
    void withoutServletJtaOrEjbTheJarStartsAndGuards() {
        for (String api : new String[] {
            "jakarta.servlet.http.HttpServletRequest",
            "jakarta.servlet.ServletContainerInitializer",
            "jakarta.transaction.TransactionSynchronizationRegistry",
            "jakarta.transaction.UserTransaction",
            "jakarta.ejb.Stateless",
            "jakarta.enterprise.concurrent.ManagedScheduledExecutorService",
            "jakarta.persistence.EntityManager"
        }) {
            assertThatThrownBy(() -> Class.forName(api))
                    .as("this test's class path must lack " + api)
                    .isInstanceOf(ClassNotFoundException.class);
        }
        // Discovery on: the library's classes are found in its bean archive (target/classes), its
        // extensions through META-INF/services, as a runtime finds them.
        try (WeldContainer c = new Weld("core-profile")
                .addBeanClasses(Payments.class, Refunds.class)
                .initialize()) {
            Payments payments = c.select(Payments.class).get();
            String key = "core-" + System.nanoTime();
            assertThat(payments.charge(key, 100)).isEqualTo(1);
            assertThat(payments.charge(key, 100)).as("replayed").isEqualTo(1);
            assertThatThrownBy(() -> payments.charge(key, 200)).isInstanceOf(IdempotencyKeyMismatchException.class);
            assertThat(payments.runs()).isEqualTo(1);

            Refunds refunds = c.select(Refunds.class).get();
            refunds.refund(key);
            refunds.refund(key);
            assertThat(refunds.runs())
                    .as("@Idempotent declared on the interface")
                    .isEqualTo(1);
        }
    }

    /** A guarded CDI method, counting its runs. */
    @ApplicationScoped
    public static class Payments {
        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(name = "core-profile.charge")
        public int charge(@IdempotencyKey String orderId, long cents) {
            return runs.incrementAndGet();
        }

        int runs() {
            return runs.get();
        }
    }

    /** Declares the guard for its implementations. */
    public interface RefundService {
        @Idempotent(name = "core-profile.refund")
        void refund(@IdempotencyKey String orderId);
    }

    /** Guarded through its interface: the portable extension binds the interceptor. */
    @ApplicationScoped
    public static class Refunds implements RefundService {
        private final AtomicInteger runs = new AtomicInteger();

        @Override
        public void refund(String orderId) {
            runs.incrementAndGet();
        }

        int runs() {
            return runs.get();
        }
    }
}
