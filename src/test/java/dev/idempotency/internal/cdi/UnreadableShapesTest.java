package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/** Parameters and return types whose state cannot be read whole fail the deployment, not a call. */
class UnreadableShapesTest {

    @Test
    void theDeploymentFailsNamingEachMethodItsParameterOrFieldAndTheFix() {
        assertThatThrownBy(() -> {
                    try (WeldContainer c =
                            WeldBoot.weld(Map.of(), UnreadableShapes.class).initialize()) {
                        c.isRunning();
                    }
                })
                .isInstanceOf(DeploymentException.class)
                .satisfies(e -> {
                    StringBuilder all = new StringBuilder();
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        all.append(t.getMessage()).append('\n');
                    }
                    assertThat(all.toString())
                            .contains(UnreadableShapes.class.getName() + "#withThread")
                            .contains("parameter 'worker'")
                            .contains("java.lang.Thread")
                            .contains("make it a record")
                            .contains(UnreadableShapes.class.getName() + "#returnsMoney")
                            .contains(Shapes.Money.class.getName() + ".cents")
                            .contains("public getter");
                });
    }
}
