package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.spi.ConfigLookup;
import java.io.IOException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyResolverTest {

    static class Service {
        @Idempotent(name = "svc.pay", ttl = "PT2H", keepOn = IllegalArgumentException.class)
        public void pay(String id) {}

        @Idempotent
        public void plain(String id, int n) {}
    }

    private static final String CLS = Service.class.getName();

    private static Method method(String name) {
        for (Method m : Service.class.getMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static OperationPolicy resolve(String methodName, Map<String, String> config) {
        Method m = method(methodName);
        return new PolicyResolver(ConfigLookup.of(config)).resolve(m, m.getAnnotation(Idempotent.class));
    }

    @Test
    void annotationValuesAndGlobalDefaults() {
        OperationPolicy p = resolve("pay", Map.of());
        assertThat(p.name()).isEqualTo("svc.pay");
        assertThat(p.ttl()).isEqualTo(Duration.ofHours(2));
        assertThat(p.lease()).isEqualTo(GlobalSettings.DEFAULT_LEASE);
        assertThat(p.onInProgress()).isEqualTo(InProgressPolicy.REJECT);
        assertThat(p.exceptions().keeps(new IllegalArgumentException())).isTrue();
        assertThat(p.required()).isFalse();

        OperationPolicy plain = resolve("plain", Map.of());
        assertThat(plain.name()).isEqualTo(CLS + "#plain(String,int)");
        assertThat(plain.ttl()).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void globalKeysFillEmptyAnnotationMembersOnly() {
        Map<String, String> c = Map.of("idempotency.ttl", "PT5M", "idempotency.lease", "PT7S");
        assertThat(resolve("plain", c).ttl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(resolve("plain", c).lease()).isEqualTo(Duration.ofSeconds(7));
        assertThat(resolve("pay", c).ttl())
                .as("the annotation's own ttl wins over idempotency.ttl")
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void configOverridesInFaultTolerancePrecedence() {
        Map<String, String> c = new HashMap<>();
        c.put("Idempotent/ttl", "PT1M");
        assertThat(resolve("pay", c).ttl())
                .as("Idempotent/ttl beats the annotation")
                .isEqualTo(Duration.ofMinutes(1));
        c.put(CLS + "/Idempotent/ttl", "PT2M");
        assertThat(resolve("pay", c).ttl()).as("class level beats global").isEqualTo(Duration.ofMinutes(2));
        c.put(CLS + "/pay/Idempotent/ttl", "PT3M");
        assertThat(resolve("pay", c).ttl()).as("method level beats class level").isEqualTo(Duration.ofMinutes(3));
        assertThat(resolve("plain", c).ttl())
                .as("other methods keep the class level")
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void everyMemberCanBeOverridden() {
        Map<String, String> c = Map.of(
                CLS + "/pay/Idempotent/name", "renamed",
                CLS + "/pay/Idempotent/lease", "PT9S",
                CLS + "/pay/Idempotent/onInProgress", "wait",
                CLS + "/pay/Idempotent/required", "true",
                CLS + "/pay/Idempotent/keepOn", "",
                CLS + "/pay/Idempotent/releaseOn", "java.io.IOException, java.lang.IllegalArgumentException");
        OperationPolicy p = resolve("pay", c);
        assertThat(p.name()).isEqualTo("renamed");
        assertThat(p.lease()).isEqualTo(Duration.ofSeconds(9));
        assertThat(p.onInProgress()).isEqualTo(InProgressPolicy.WAIT);
        assertThat(p.required()).isTrue();
        assertThat(p.exceptions().keeps(new IOException())).isFalse();
        assertThat(p.exceptions().keeps(new IllegalArgumentException()))
                .as("a blank keepOn falls through to the annotation, whose keepOn still wins")
                .isTrue();
    }

    @Idempotent(name = "billing")
    static class ClassLevel {
        public void charge(String id) {}

        @Idempotent(name = "billing.refund.v1")
        public void refund(String id) {}
    }

    @Test
    void aClassLevelNameIsAPrefixSoMethodsNeverShareRecords() throws Exception {
        PolicyResolver r = new PolicyResolver(ConfigLookup.none());
        Method charge = ClassLevel.class.getMethod("charge", String.class);
        Method refund = ClassLevel.class.getMethod("refund", String.class);
        Idempotent onClass = ClassLevel.class.getAnnotation(Idempotent.class);
        assertThat(r.resolve(charge, onClass).name()).isEqualTo("billing.charge");
        assertThat(r.resolve(refund, refund.getAnnotation(Idempotent.class)).name())
                .isEqualTo("billing.refund.v1");
        String cls = ClassLevel.class.getName();
        PolicyResolver configured = new PolicyResolver(
                ConfigLookup.of(Map.of(cls + "/Idempotent/name", "pay", cls + "/refund/Idempotent/name", "refunds")));
        assertThat(configured.resolve(charge, onClass).name()).isEqualTo("pay.charge");
        assertThat(configured
                        .resolve(refund, refund.getAnnotation(Idempotent.class))
                        .name())
                .isEqualTo("refunds");
        assertThatThrownBy(() ->
                        new PolicyResolver(ConfigLookup.of(Map.of("Idempotent/name", "x"))).resolve(charge, onClass))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("same name");
    }

    @Test
    void badValuesNameTheMethodTheKeyAndTheFix() {
        assertThatThrownBy(() -> resolve("pay", Map.of(CLS + "/pay/Idempotent/ttl", "24h")))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(CLS + "#pay")
                .hasMessageContaining(CLS + "/pay/Idempotent/ttl")
                .hasMessageContaining("PT24H");
        assertThatThrownBy(() -> resolve("pay", Map.of("Idempotent/lease", "PT0S")))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> resolve("pay", Map.of("Idempotent/onInProgress", "QUEUE")))
                .hasMessageContaining("REJECT or WAIT");
        assertThatThrownBy(() -> resolve("pay", Map.of(CLS + "/Idempotent/required", "yes", "Idempotent/required", "")))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessage("Invalid required for " + CLS + "#pay: Config key '" + CLS
                        + "/Idempotent/required' is 'yes'; use true or false (default false).");
        assertThatThrownBy(() -> resolve("pay", Map.of("Idempotent/releaseOn", "com.nowhere.Missing")))
                .hasMessageContaining("com.nowhere.Missing")
                .hasMessageContaining("cannot be loaded");
        assertThatThrownBy(() -> resolve("pay", Map.of("Idempotent/keepOn", "java.lang.String")))
                .hasMessageContaining("not an exception type");
        assertThatThrownBy(() -> GlobalSettings.from(ConfigLookup.of(Map.of("idempotency.purge.batch-size", "0")))
                        .purgeBatchSize())
                .hasMessageContaining("idempotency.purge.batch-size");
    }
}
