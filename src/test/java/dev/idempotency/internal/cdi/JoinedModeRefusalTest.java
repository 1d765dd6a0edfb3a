package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The joined mode writes the record in the caller's transaction, so the method's work must run in it
 * and end with it: a method whose work cannot fails the deployment, naming the method and the fix.
 */
class JoinedModeRefusalTest {

    /** Every operation joins (the global form of the per-method key), on a store that can join. */
    private static final Map<String, String> JOINED =
            Map.of("idempotency.store", "joined", "Idempotent/transaction", "joined");

    @Test
    void aMethodReturningAStageIsRefused() {
        assertRefused(JoinedBeans.Stage.class, "JoinedBeans$Stage#later", "returns a CompletionStage", "joined.stage");
    }

    @Test
    void aBodyInItsOwnTransactionIsRefused() {
        assertRefused(
                JoinedBeans.RequiresNew.class,
                "JoinedBeans$RequiresNew#charge",
                "@Transactional(REQUIRES_NEW)",
                "joined.requires-new");
    }

    @Test
    void aBodyWithoutTransactionIsRefused() {
        assertRefused(
                JoinedBeans.NotSupported.class,
                "JoinedBeans$NotSupported#charge",
                "@TransactionAttribute(NOT_SUPPORTED)",
                "joined.not-supported");
    }

    @Test
    void aBeanManagedBodyIsRefused() {
        assertRefused(
                JoinedBeans.BeanManaged.class,
                "JoinedBeans$BeanManaged#charge",
                "@TransactionManagement(BEAN)",
                "joined.bean-managed");
    }

    @Test
    void aBodyJoiningTheCallersTransactionDeploysAndTheMethodLevelTypeWins() {
        try (WeldContainer c = WeldBoot.weld(JOINED, JoinedStore.class, JoinedBeans.Mandatory.class)
                .initialize()) {
            assertThat(c.select(JoinedBeans.Mandatory.class).get().charge("k")).isEqualTo("k");
        }
    }

    @Test
    void aTransactionBegunAfterTheGuardIsRefusedAtTheDefaultPriority() {
        assertRefused(
                JoinedBeans.Required.class,
                "JoinedBeans$Required#charge",
                "@Transactional(REQUIRED) begins its transaction when the caller has none",
                "joined.required");
        assertRefused(
                JoinedBeans.Supports.class,
                "JoinedBeans$Supports#charge",
                "@Transactional(SUPPORTS) runs it without a transaction",
                "joined.supports");
    }

    @Test
    void theRefusalNamesThePriorityAndTheMandatoryFix() {
        assertThatThrownBy(() -> {
                    try (WeldContainer c = WeldBoot.weld(JOINED, JoinedStore.class, JoinedBeans.Required.class)
                            .initialize()) {
                        c.select(JoinedBeans.Required.class).get();
                    }
                })
                .rootCause()
                .hasMessageContaining("idempotency.interceptor.priority above 200")
                .hasMessageContaining("@Transactional(MANDATORY)");
    }

    @Test
    void theSameBeansDeployWithTheGuardInsideTransactional() {
        Map<String, String> inside = new java.util.HashMap<>(JOINED);
        inside.put("idempotency.interceptor.priority", "1000");
        try (WeldContainer c = WeldBoot.weld(
                        inside, JoinedStore.class, JoinedBeans.Required.class, JoinedBeans.Supports.class)
                .initialize()) {
            assertThat(c.select(JoinedBeans.Required.class).get().charge("k")).isEqualTo("k");
            assertThat(c.select(JoinedBeans.Supports.class).get().charge("k")).isEqualTo("k");
        }
    }

    @Test
    void anEjbWhoseContainerBeginsTheTransactionDeploys() {
        try (WeldContainer c = WeldBoot.weld(JOINED, JoinedStore.class, JoinedBeans.RequiredEjb.class)
                .initialize()) {
            assertThat(c.select(JoinedBeans.RequiredEjb.class).get().charge("k"))
                    .isEqualTo("k");
        }
    }

    @Test
    void theSeparateModeDeploysTheSameMethods() {
        try (WeldContainer c = WeldBoot.weld(
                        Map.of(),
                        JoinedBeans.Stage.class,
                        JoinedBeans.RequiresNew.class,
                        JoinedBeans.NotSupported.class)
                .initialize()) {
            assertThat(c.select(JoinedBeans.RequiresNew.class).get().charge("k"))
                    .isEqualTo("k");
        }
    }

    private static void assertRefused(Class<?> bean, String method, String reason, String operation) {
        assertThatThrownBy(() -> {
                    try (WeldContainer c =
                            WeldBoot.weld(JOINED, JoinedStore.class, bean).initialize()) {
                        c.select(bean).get();
                    }
                })
                .as("deploying %s in the joined mode", bean.getSimpleName())
                .hasRootCauseInstanceOf(IdempotencyConfigurationException.class)
                .rootCause()
                .hasMessageContaining(method)
                .hasMessageContaining(reason)
                .hasMessageContaining("operation '" + operation + "'")
                .hasMessageContaining(method.replace('#', '/') + "/Idempotent/transaction=separate'")
                .hasMessageContaining("@Idempotent(transaction = SEPARATE)");
    }
}
