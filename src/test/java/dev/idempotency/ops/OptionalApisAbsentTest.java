package dev.idempotency.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ops.inspection.RecordInspector;
import dev.idempotency.ops.metrics.IdempotencyMetrics;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.ObjectName;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * A deployment on a server without MicroProfile Metrics, MicroProfile Health, MicroProfile OpenAPI,
 * OpenTelemetry or Micrometer still starts, guards, counts (JMX) and inspects. Runs in its own surefire
 * execution whose class path lacks those APIs (pom.xml, execution {@code optional-apis-absent}); the
 * default execution skips it.
 */
class OptionalApisAbsentTest {

    @Test
    void theOptionalApisAreAbsentAndTheLibraryWorksWithoutThem() throws Exception {
        for (String api : new String[] {
            "org.eclipse.microprofile.metrics.MetricRegistry",
            "org.eclipse.microprofile.health.HealthCheck",
            "org.eclipse.microprofile.openapi.OASFilter",
            "io.opentelemetry.api.metrics.Meter",
            "io.micrometer.core.instrument.MeterRegistry"
        }) {
            assertThatThrownBy(() -> Class.forName(api))
                    .as("this test's class path must lack " + api)
                    .isInstanceOf(ClassNotFoundException.class);
        }
        try (WeldContainer c = OpsWeld.weld(Map.of(), Charges.class).initialize()) {
            Charges charges = c.select(Charges.class).get();
            Script.run(charges, "absent" + System.nanoTime());
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            assertThat(metrics.find(Charges.OPERATION).orElseThrow().executions())
                    .isEqualTo(2);
            ObjectName op = new ObjectName(
                    "dev.idempotency:type=Operation,application=\"default\",name=\"" + Charges.OPERATION + "\"");
            assertThat(ManagementFactory.getPlatformMBeanServer().getAttribute(op, "Replays"))
                    .isEqualTo(3L);
            assertThat(c.select(RecordInspector.class)
                            .get()
                            .find(Charges.OPERATION, "", RecordInspector.methodKey("nothing")))
                    .isEmpty();
        }
    }
}
