package demo;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JPA store on a data source the app does not have refuses the boot naming the key, as its startup
 * checks promise, instead of starting and answering every guarded call with 500.
 */
class MissingDataSourceBootTest {

    @Test
    void aMissingDataSourceFailsStartupNamingTheKey() throws Exception {
        Throwable failure = Boot.failure(Map.of("idempotency.store", "jpa", "idempotency.jpa.datasource", "nosuchds"));
        assertNotNull(failure, "the app started on the JPA store with no data source 'nosuchds'; it must refuse to");
        String messages = Boot.messages(failure);
        assertTrue(
                messages.contains("idempotency.jpa.datasource") && messages.contains("nosuchds"),
                () -> "the failure does not name idempotency.jpa.datasource=nosuchds:\n" + messages);
        System.out.println(
                "refused as expected: " + messages.lines().findFirst().orElse(""));
    }
}
