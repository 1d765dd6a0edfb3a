package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class KeyReaderTest {

    /** The seeds' repayment message: two key fields out of declaration order. */
    record Repayment(
            @IdempotencyKey(order = 2) String source, @IdempotencyKey(order = 1) String serialNo, BigDecimal amount) {}

    static class Callback {
        @IdempotencyKey
        private String tradeNo;

        String payload;

        Callback(String tradeNo, String payload) {
            this.tradeNo = tradeNo;
            this.payload = payload;
        }
    }

    static class Api {
        public void byParams(
                @IdempotencyKey(order = 1) long account, String note, @IdempotencyKey(order = 0) String serial) {}

        public void byRecord(Repayment r) {}

        public void byField(Callback c, @IdempotencyKey(order = 5) String channel) {}

        public void none(String a) {}
    }

    private static KeyReader reader(String name) {
        for (Method m : Api.class.getMethods()) {
            if (m.getName().equals(name)) {
                return KeyReader.of(m);
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void parametersInOrder() {
        assertThat(reader("byParams").read(new Object[] {42L, "ignored", "S-1"}))
                .isEqualTo("[\"S-1\",\"42\"]");
        assertThat(reader("byParams").read(new Object[] {42L, "other note", "S-1"}))
                .as("values without @IdempotencyKey are not part of the key")
                .isEqualTo("[\"S-1\",\"42\"]");
    }

    @Test
    void recordComponentsInOrder() {
        KeyReader r = reader("byRecord");
        assertThat(r.read(new Object[] {new Repayment("BANK", "SN-9", BigDecimal.TEN)}))
                .isEqualTo("[\"SN-9\",\"BANK\"]");
    }

    @Test
    void privateFieldsOfAParameterAndAParameter() {
        KeyReader r = reader("byField");
        assertThat(r.read(new Object[] {new Callback("T-7", "x"), "alipay"})).isEqualTo("[\"T-7\",\"alipay\"]");
    }

    @Test
    void separatorsInValuesCannotForgeAnotherKey() {
        KeyReader r = reader("byParams");
        assertThat(r.read(new Object[] {1L, null, "a\",\"b"})).isNotEqualTo(r.read(new Object[] {1L, null, "a"}));
    }

    @Test
    void nullOrBlankValuesMakeTheKeyMissingAndAreNamed() {
        KeyReader r = reader("byRecord");
        Object[] args = {new Repayment("BANK", "  ", BigDecimal.ONE)};
        assertThat(r.read(args)).isNull();
        assertThat(r.describeMissing(args))
                .contains("serialNo")
                .contains("order 1")
                .doesNotContain("BANK");
        assertThat(r.read(new Object[] {null})).isNull();
    }

    @Test
    void noKeyValuesMeansFingerprintKey() {
        assertThat(reader("none").hasKeys()).isFalse();
        assertThat(reader("none").read(new Object[] {"a"})).isNull();
    }
}
