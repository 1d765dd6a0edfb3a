package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;
import java.util.Map;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * One inherited method, two beans with different class-level {@code @Idempotent} names: each bean
 * gets its own plan, so neither replays the other's outcome.
 */
@EnableWeld
class InheritedPlansTest {

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), AlphaCharges.class, BetaCharges.class);

    @Inject
    AlphaCharges alpha;

    @Inject
    BetaCharges beta;

    @Inject
    IdempotencyRuntime runtime;

    @Test
    void bothPlansAreBuiltAtDeploymentBeforeAnyCall() {
        assertThat(runtime.plannedOperations())
                .as("one plan per (bean class, method), built when the application starts")
                .contains("alpha.charge", "beta.charge");
    }

    @Test
    void twoBeansInheritingOneMethodKeepTheirOwnOperations() {
        String id = "order-" + System.nanoTime();
        assertThat(alpha.charge(id)).isEqualTo("alpha-run-1");
        assertThat(beta.charge(id))
                .as("beta runs under its own name, not alpha's")
                .isEqualTo("beta-run-1");
        assertThat(alpha.charge(id)).as("alpha replays its own outcome").isEqualTo("alpha-run-1");
        assertThat(beta.charge(id)).as("beta replays its own outcome").isEqualTo("beta-run-1");
    }
}
