package dev.idempotency.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.internal.ops.OpsSettings;
import dev.idempotency.internal.ops.health.StoreReadinessCheck;
import dev.idempotency.ops.inspection.RecordInspector;
import dev.idempotency.ops.inspection.RecordView;
import dev.idempotency.ops.inspection.RepairOutcome;
import dev.idempotency.ops.metrics.IdempotencyMetrics;
import dev.idempotency.spi.RecordStatus;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/** Inspection and repair through the CDI API and JMX, and the readiness check, on a real Weld. */
class RecordInspectorTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aKeyDeclaredAsAnInterfaceIsAddressedThroughItsMethod() throws Exception {
        try (WeldContainer c = OpsWeld.weld(Map.of(), Charges.class).initialize()) {
            RecordInspector inspector = c.select(RecordInspector.class).get();
            Charges charges = c.select(Charges.class).get();
            Charges.Ref ref = new Charges.Ref("ref-" + System.nanoTime());
            charges.chargeByRef(ref, 5);
            java.lang.reflect.Method method = Charges.class.getMethod("chargeByRef", Charges.OrderRef.class, int.class);

            assertThat(inspector.find(Charges.BY_REF, "", RecordInspector.methodKey(method, ref, 5)))
                    .as("the record, addressed through the method's declared key type")
                    .map(RecordView::status)
                    .contains(RecordStatus.COMPLETED);
            assertThat(inspector.find(Charges.BY_REF, "", RecordInspector.methodKey(ref)))
                    .as("addressed by the value alone, whose class the call's key text names")
                    .isEmpty();
            assertThatThrownBy(() -> RecordInspector.methodKey(method, null, 5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is null or blank");
        }
    }

    @Test
    void findsARecordWithoutItsOutcomeOrKeyAndRepairsOnlyWhatItShould() throws Exception {
        List<String> log = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                log.add(r.getLevel() + " "
                        + java.text.MessageFormat.format(
                                r.getMessage(), r.getParameters() == null ? new Object[0] : r.getParameters()));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger jul = Logger.getLogger(RecordInspector.class.getName());
        jul.addHandler(capture);
        try (WeldContainer c = OpsWeld.weld(Map.of(OpsSettings.INSPECTION_JMX_REPAIR_ENABLED, "true"), Charges.class)
                .initialize()) {
            RecordInspector inspector = c.select(RecordInspector.class).get();
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            Charges charges = c.select(Charges.class).get();
            String done = "secret-done-" + System.nanoTime();
            Instant before = Instant.now();
            charges.charge(done, 7);
            String doneKey = RecordInspector.methodKey(done);

            RecordView view = inspector.find(Charges.OPERATION, "", doneKey).orElseThrow();
            assertThat(view.status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(view.createdAt()).isBetween(before.minusMillis(1), Instant.now());
            assertThat(view.leaseEnd()).isNull();
            assertThat(view.expiresAt()).isAfter(Instant.now().plusSeconds(3600));
            assertThat(view.storedBytes()).isPositive();
            assertThat(view.fingerprint()).hasSize(64);
            assertThat(view.keyHash()).hasSize(12);
            assertThat(view.toString()).doesNotContain(done);
            assertThat(inspector.find(Charges.OPERATION, "other-scope", doneKey))
                    .isEmpty();
            assertThat(inspector.find(Charges.OPERATION, "", RecordInspector.methodKey("never")))
                    .isEmpty();

            // A stuck call: IN_PROGRESS until released.
            String stuck = "secret-stuck-" + System.nanoTime();
            String stuckKey = RecordInspector.methodKey(stuck);
            java.util.concurrent.CountDownLatch running = charges.hold();
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return charges.charge(stuck, 1);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();
            RecordView inProgress =
                    inspector.find(Charges.OPERATION, "", stuckKey).orElseThrow();
            assertThat(inProgress.status()).isEqualTo(RecordStatus.IN_PROGRESS);
            assertThat(inProgress.leaseEnd()).isEqualTo(inProgress.expiresAt());
            assertThat(inProgress.storedBytes()).isZero();

            assertThat(inspector.deleteCompleted(Charges.OPERATION, "", stuckKey, "alice"))
                    .isEqualTo(RepairOutcome.WRONG_STATE);
            assertThat(inspector.releaseInProgress(Charges.OPERATION, "", doneKey, "alice"))
                    .isEqualTo(RepairOutcome.WRONG_STATE);
            assertThat(inspector.releaseInProgress(Charges.OPERATION, "", stuckKey, "alice"))
                    .isEqualTo(RepairOutcome.DONE);
            assertThat(inspector.find(Charges.OPERATION, "", stuckKey)).isEmpty();
            assertThat(metrics.find(Charges.OPERATION).orElseThrow().releases()).containsEntry("operator", 1L);
            charges.let();
            held.get(60, TimeUnit.SECONDS);
            assertThat(metrics.find(Charges.OPERATION).orElseThrow().outcomesNotStored())
                    .as("the released call's late outcome is fenced off")
                    .isEqualTo(1);

            assertThat(inspector.deleteCompleted(Charges.OPERATION, "", doneKey, "bob"))
                    .isEqualTo(RepairOutcome.DONE);
            assertThat(inspector.deleteCompleted(Charges.OPERATION, "", doneKey, "bob"))
                    .isEqualTo(RepairOutcome.NOT_FOUND);
            int runs = charges.runs();
            charges.charge(done, 7);
            assertThat(charges.runs())
                    .as("after the delete, the key runs again")
                    .isEqualTo(runs + 1);

            // The same over JMX.
            ObjectName jmx = new ObjectName("dev.idempotency:type=Inspection,application=\"default\"");
            String jmxKey = (String) JMX.invoke(
                    jmx, "methodKey", new Object[] {new String[] {done}}, new String[] {String[].class.getName()});
            assertThat(jmxKey).isEqualTo(doneKey);
            String[] sig = {String.class.getName(), String.class.getName(), String.class.getName()};
            assertThat((String) JMX.invoke(jmx, "find", new Object[] {Charges.OPERATION, "", doneKey}, sig))
                    .contains("COMPLETED")
                    .doesNotContain(done);
            assertThat(JMX.invoke(jmx, "deleteCompleted", new Object[] {Charges.OPERATION, "", doneKey}, sig))
                    .isEqualTo("DONE");
            assertThat(JMX.invoke(jmx, "find", new Object[] {Charges.OPERATION, "", doneKey}, sig))
                    .isEqualTo("not found");
        } finally {
            jul.removeHandler(capture);
        }
        assertThat(log).anySatisfy(l -> assertThat(l)
                .startsWith("INFO idempotency repair by alice: release of " + Charges.OPERATION + "#")
                .endsWith("DONE"));
        assertThat(log).anySatisfy(l -> assertThat(l).startsWith("INFO idempotency repair by bob: delete"));
        assertThat(log).anySatisfy(l -> assertThat(l).startsWith("INFO idempotency repair by jmx: delete"));
        assertThat(log).allSatisfy(l -> assertThat(l).doesNotContain("secret-"));
    }

    /**
     * Without {@code idempotency.inspection.jmx.repair.enabled} the inspection MBean is read-only: a
     * JMX bridge can find a record but neither delete nor release it.
     */
    @Test
    void jmxRepairIsOffByDefaultAndReadOnlyInspectionStays() throws Exception {
        try (WeldContainer c = OpsWeld.weld(Map.of(), Charges.class).initialize()) {
            Charges charges = c.select(Charges.class).get();
            String done = "secret-jmx-" + System.nanoTime();
            charges.charge(done, 7);
            String doneKey = RecordInspector.methodKey(done);
            ObjectName jmx = new ObjectName("dev.idempotency:type=Inspection,application=\"default\"");
            String[] sig = {String.class.getName(), String.class.getName(), String.class.getName()};

            assertThat(Arrays.stream(JMX.getMBeanInfo(jmx).getOperations()).map(MBeanOperationInfo::getName))
                    .as("the inspection MBean's operations")
                    .contains("find", "methodKey")
                    .doesNotContain("deleteCompleted", "releaseInProgress");
            assertThatThrownBy(() ->
                            JMX.invoke(jmx, "deleteCompleted", new Object[] {Charges.OPERATION, "", doneKey}, sig))
                    .isInstanceOf(ReflectionException.class);
            assertThat((String) JMX.invoke(jmx, "find", new Object[] {Charges.OPERATION, "", doneKey}, sig))
                    .as("the record is still there")
                    .contains("COMPLETED");
        }
    }

    @Test
    void theReadinessCheckFollowsTheStore() throws Exception {
        PlainHealthResponses.install();
        try (WeldContainer c = OpsWeld.weld(Map.of("idempotency.store", "switchable"), BrokenStore.class)
                .initialize()) {
            StoreReadinessCheck check = c.select(
                            StoreReadinessCheck.class, org.eclipse.microprofile.health.Readiness.Literal.INSTANCE)
                    .get();
            BrokenStore store = c.select(BrokenStore.class).get();
            HealthCheckResponse up = check.call();
            assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(up.getName()).isEqualTo(StoreReadinessCheck.NAME);
            // The configured store's name, not a container proxy's class name.
            assertThat(up.getData().orElseThrow().get("store")).isEqualTo("switchable");
            store.down(true);
            HealthCheckResponse down = check.call();
            assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(down.getData().orElseThrow().get("error").toString()).contains("connection refused");
            store.down(false);
            assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        }
    }

    /**
     * {@code idempotency.application}: the interceptor writes the record under the application's
     * namespace, the inspector finds it there, and nothing is written under the unnamed key.
     */
    @Test
    void anApplicationNameReachesTheInterceptorAndTheInspector() throws Exception {
        try (WeldContainer c = OpsWeld.weld(Map.of("idempotency.application", " orders "), Charges.class)
                .initialize()) {
            Charges charges = c.select(Charges.class).get();
            String id = "app-" + System.nanoTime();
            assertThat(charges.charge(id, 3)).isEqualTo(id + ":3");
            assertThat(charges.charge(id, 3)).isEqualTo(id + ":3");
            assertThat(charges.runs()).isEqualTo(1);

            String key = RecordInspector.methodKey(id);
            dev.idempotency.spi.IdempotencyStore store = c.select(
                            dev.idempotency.internal.core.EntryPointServices.class)
                    .get()
                    .engine()
                    .store();
            assertThat(store.read(dev.idempotency.internal.core.RecordKey.of("orders", Charges.OPERATION, "", key)
                            .storeKey()))
                    .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED));
            assertThat(store.read(dev.idempotency.internal.core.RecordKey.of(Charges.OPERATION, "", key)
                            .storeKey()))
                    .as("nothing under the unnamed key")
                    .isEmpty();
            RecordInspector inspector = c.select(RecordInspector.class).get();
            assertThat(inspector.find(Charges.OPERATION, "", key)).isPresent();
        }
    }
}
