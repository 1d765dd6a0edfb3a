package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.Settlement;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * Finding the JTA registry: without JNDI or without JTA the outcome is settled when the method
 * returns; on a server that has JTA but whose registry lookup fails, the deployment fails naming the
 * cause and the key that fixes it, instead of silently settling before transactions end.
 */
class TransactionSettlementTest {

    private static final String REGISTRY = GlobalSettings.DEFAULT_TRANSACTION_REGISTRY;

    private static <T> T stub(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(
                TransactionSettlementTest.class.getClassLoader(),
                new Class<?>[] {type},
                (p, m, a) -> switch (m.getName()) {
                    case "getTransactionStatus", "getStatus" -> Status.STATUS_NO_TRANSACTION;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == a[0];
                    case "toString" -> type.getSimpleName() + " stub";
                    default -> null;
                }));
    }

    @Test
    void withoutJndiOutcomesAreSettledWhenMethodsReturn() {
        assertThat(TransactionSettlement.lookup(REGISTRY)).isSameAs(Settlement.IMMEDIATE);
    }

    @Test
    void withJndiButWithoutJtaOutcomesAreSettledWhenMethodsReturn() {
        StubNaming.with(Map.of(), () -> assertThat(TransactionSettlement.lookup(REGISTRY))
                .isSameAs(Settlement.IMMEDIATE));
    }

    @Test
    void aServerWithJtaWhoseRegistryCannotBeFoundFailsNamingTheKey() {
        StubNaming.with(Map.of("java:comp/UserTransaction", stub(UserTransaction.class)), () -> assertThatThrownBy(
                        () -> TransactionSettlement.lookup(REGISTRY))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(REGISTRY)
                .hasMessageContaining("is not bound")
                .hasMessageContaining(GlobalSettings.TRANSACTION_REGISTRY));
    }

    @Test
    void theRegistryIsLookedUpUnderTheConfiguredName() {
        StubNaming.with(
                Map.of(
                        "java:comp/UserTransaction",
                        stub(UserTransaction.class),
                        "java:/TransactionSynchronizationRegistry",
                        stub(TransactionSynchronizationRegistry.class)),
                () -> assertThat(TransactionSettlement.lookup("java:/TransactionSynchronizationRegistry"))
                        .isInstanceOf(TransactionSettlement.class));
    }

    @Test
    void theDeploymentFailsWhenTheRegistryCannotBeFound() {
        StubNaming.with(
                Map.of("java:comp/UserTransaction", stub(UserTransaction.class)), () -> assertThatThrownBy(() -> {
                            try (WeldContainer c =
                                    WeldBoot.weld(Map.of(), Orders.class).initialize()) {
                                // Started: the deployment should have failed.
                                c.isRunning();
                            }
                        })
                        .satisfies(e -> {
                            StringBuilder all = new StringBuilder();
                            for (Throwable t = e; t != null; t = t.getCause()) {
                                all.append(t).append('\n');
                            }
                            assertThat(all.toString()).contains(GlobalSettings.TRANSACTION_REGISTRY);
                        }));
    }
}
