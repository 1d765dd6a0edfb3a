package demo;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An app whose guard cannot apply must not start: here the library's interceptor is vetoed (as Weld
 * drops it when a type its class names is missing), and the boot must fail naming a guarded method.
 */
class FailClosedBootTest {

    static final String INTERCEPTOR = "dev.idempotency.internal.cdi.IdempotentInterceptor";

    /** Vetoes the library's {@code @Idempotent} interceptor. */
    public static final class VetoInterceptor implements Extension {
        static volatile boolean vetoed;

        void veto(@Observes ProcessAnnotatedType<?> type) {
            if (type.getAnnotatedType().getJavaClass().getName().equals(INTERCEPTOR)) {
                type.veto();
                vetoed = true;
            }
        }
    }

    @Test
    void withoutItsInterceptorTheAppDoesNotStart() throws Exception {
        Throwable failure = Boot.failure(Map.of(), new VetoInterceptor());
        assertTrue(VetoInterceptor.vetoed, INTERCEPTOR + " was never seen: the test vetoed nothing");
        assertNotNull(failure, "the app started without the @Idempotent interceptor; it must refuse to");
        String messages = Boot.messages(failure);
        assertTrue(
                Pattern.compile("(Payments|Refunds|CardRefunds|Ledger|CardLedger)\\W+(charge|refund|capture|settle)")
                        .matcher(messages)
                        .find(),
                () -> "the failure names no guarded CDI method:\n" + messages);
        System.out.println(
                "refused as expected: " + messages.lines().findFirst().orElse(""));
    }
}
