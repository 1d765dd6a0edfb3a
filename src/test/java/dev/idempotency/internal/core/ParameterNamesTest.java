package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import org.junit.jupiter.api.Test;

/** Messages name a parameter by its name, or by its position and type when no name was compiled in. */
class ParameterNamesTest {

    static class Charges {
        public String charge(String account, @IdempotencyKey String orderId) {
            return orderId;
        }
    }

    @Test
    void aMissingKeyNamesTheParameterOrItsPositionAndType() throws Exception {
        Method m = Charges.class.getMethod("charge", String.class, String.class);
        Parameter p = m.getParameters()[1];
        String described = KeyReader.of(m).describeMissing(new Object[] {"acct", null});
        if (p.isNamePresent()) {
            assertThat(described).contains("parameter 'orderId'");
        } else {
            assertThat(described).contains("parameter #2 (String)").doesNotContain("arg1");
        }
    }

    @Test
    void withoutCompiledNamesTheDescriptionIsPositional() throws Exception {
        // The JDK's own classes are compiled without -parameters: their names would read arg0, arg1.
        Method m = String.class.getMethod("regionMatches", int.class, String.class, int.class, int.class);
        assertThat(m.getParameters()[1].isNamePresent()).isFalse();
        assertThat(PolicyResolver.describeParameter(m, 1)).isEqualTo("parameter #2 (String)");
        Method own = Charges.class.getMethod("charge", String.class, String.class);
        assertThat(PolicyResolver.describeParameter(own, 1)).isEqualTo("parameter 'orderId'");
    }
}
