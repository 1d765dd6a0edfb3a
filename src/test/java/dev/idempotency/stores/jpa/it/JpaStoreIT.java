package dev.idempotency.stores.jpa.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.KeyReader;
import dev.idempotency.core.RecordKey;
import dev.idempotency.spi.Races;
import dev.idempotency.stores.jpa.it.app.BusinessRows;
import dev.idempotency.stores.jpa.it.app.JoinedOrders;
import dev.idempotency.stores.jpa.it.app.SeparateOrders;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.io.File;
import java.util.List;
import java.util.concurrent.Callable;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JPA store in Payara Micro with no configuration but {@code idempotency.store=jpa}: EclipseLink,
 * {@code java:comp/DefaultDataSource} (H2), the table created at startup. One deployment for both
 * transaction modes, chosen per operation.
 */
@ExtendWith(ArquillianExtension.class)
class JpaStoreIT {

    private static final int CALLERS = 16;

    @Deployment
    static WebArchive deployment() {
        File jar = new File(System.getProperty("project.jar", "target/idempotency-ee.jar"));
        return ShrinkWrap.create(WebArchive.class, "jpa-store-it.war")
                .addAsLibrary(ShrinkWrap.createFromZipFile(JavaArchive.class, jar))
                .addPackage(BusinessRows.class.getPackage())
                .addClass(Races.class)
                .addAsResource("jpa-it/microprofile-config.properties", "META-INF/microprofile-config.properties")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    @Inject
    JoinedOrders joined;

    @Inject
    SeparateOrders separate;

    @Inject
    BusinessRows rows;

    @Resource
    ManagedExecutorService executor;

    @BeforeEach
    void table() {
        rows.createTable();
    }

    @Test
    void joinedModeRollbackLeavesNeitherBusinessRowNorRecordAndTheRetryRuns() {
        String orderId = "joined-fail-" + System.nanoTime();
        String storeKey = storeKey(JoinedOrders.OPERATION, orderId);

        assertThrows(RuntimeException.class, () -> joined.place(orderId, true));
        assertEquals(0, rows.count(orderId), "the business row rolled back");
        assertEquals(0, rows.records(storeKey), "the record rolled back with it");

        assertEquals("placed " + orderId, joined.place(orderId, false), "the retry runs");
        assertEquals(1, rows.count(orderId));
        assertEquals(1, rows.records(storeKey), "the record committed with the business row");
        assertEquals("placed " + orderId, joined.place(orderId, false), "a repeat replays");
        assertEquals(1, rows.count(orderId));
    }

    @Test
    void joinedModeConcurrentDuplicatesWaitThenReplayAndLeaveOneBusinessRow() throws Exception {
        for (int round = 0; round < 3; round++) {
            String orderId = "joined-race-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> joined.place(orderId, false));
            assertEquals(1, rows.count(orderId), "business rows");
            for (Object o : outcomes) {
                assertEquals("placed " + orderId, o, "every duplicate waited and replayed");
            }
        }
    }

    @Test
    void separateModeConcurrentDuplicatesLeaveOneBusinessRow() throws Exception {
        for (int round = 0; round < 3; round++) {
            String orderId = "separate-race-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> separate.place(orderId));
            assertEquals(1, rows.count(orderId), "business rows");
            for (Object o : outcomes) {
                assertEquals("placed " + orderId, o, "every duplicate waited and replayed");
            }
            assertEquals(1, rows.records(storeKey(SeparateOrders.OPERATION, orderId)), "one record");
        }
    }

    @Test
    void joinedModeWithoutATransactionAtTheInterceptorFailsNamingTheFix() {
        String orderId = "misused-" + System.nanoTime();
        IdempotencyConfigurationException e =
                assertThrows(IdempotencyConfigurationException.class, () -> separate.misused(orderId));
        assertTrue(e.getMessage().contains("idempotency.interceptor.priority"), e.getMessage());
        assertTrue(e.getMessage().contains(SeparateOrders.MISUSED), e.getMessage());
        assertEquals(0, rows.count(orderId), "the method did not run");
    }

    /** The store key the interceptor uses for a single-key method called with {@code orderId}. */
    private static String storeKey(String operation, String orderId) {
        try {
            String clientKey = KeyReader.of(SeparateOrders.class.getMethod("place", String.class))
                    .read(new Object[] {orderId});
            return RecordKey.of(operation, "", clientKey).storeKey();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Object> race(Callable<Object> call) throws InterruptedException {
        return Races.race(executor, CALLERS, call);
    }
}
