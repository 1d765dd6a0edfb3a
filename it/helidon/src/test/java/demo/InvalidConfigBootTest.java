package demo;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** An invalid value refuses the boot, naming its key: it never starts to fail every call instead. */
class InvalidConfigBootTest {

    @Test
    void aBadTtlFailsStartupNamingTheKey() throws Exception {
        Throwable failure = Boot.failure(Map.of("idempotency.ttl", "banana"));
        assertNotNull(failure, "the app started with idempotency.ttl=banana; it must refuse to");
        String messages = Boot.messages(failure);
        assertTrue(
                messages.contains("idempotency.ttl"), () -> "the failure does not name idempotency.ttl:\n" + messages);
        assertTrue(messages.contains("banana"), () -> "the failure does not name the value:\n" + messages);
        System.out.println(
                "refused as expected: " + messages.lines().findFirst().orElse(""));
    }
}
