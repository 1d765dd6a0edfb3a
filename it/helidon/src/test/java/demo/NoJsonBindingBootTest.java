package demo;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core bundle with the README's dependency alone has no JSON-B implementation, and the app's
 * {@code Payments#authorize} returns a record that only JSON-B can keep: the boot must refuse, naming
 * JSON-B, rather than run the method and then fail to store its outcome.
 */
class NoJsonBindingBootTest {

    @Test
    void withoutAJsonBindingProviderTheAppDoesNotStart() throws Exception {
        assertThrows(
                ClassNotFoundException.class,
                () -> Class.forName("org.eclipse.yasson.JsonBindingProvider"),
                "this test runs without a JSON-B implementation");
        Throwable failure = Boot.failure(Map.of());
        assertNotNull(failure, "the app started with no JSON-B implementation; it must refuse to");
        String messages = Boot.messages(failure);
        assertTrue(messages.contains("JSON-B"), () -> "the failure does not name JSON-B:\n" + messages);
        System.out.println(
                "refused as expected: " + messages.lines().findFirst().orElse(""));
    }
}
