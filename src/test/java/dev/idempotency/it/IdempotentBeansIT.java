package dev.idempotency.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.it.app.ExecutionCounter;
import dev.idempotency.it.app.LedgerSingleton;
import dev.idempotency.it.app.PaymentEjb;
import dev.idempotency.it.app.Receipt;
import dev.idempotency.it.app.ShippingBean;
import dev.idempotency.spi.Races;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * In Payara Micro: a @Stateless EJB and an @ApplicationScoped bean guarded by @Idempotent each run
 * exactly once per key under 32 concurrent callers, released at one instant.
 */
@ExtendWith(ArquillianExtension.class)
class IdempotentBeansIT {

    private static final int CALLERS = 32;
    private static final int ROUNDS = 3;

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "beans-it.war")
                .addAsLibrary(library())
                .addClasses(
                        ExecutionCounter.class,
                        LedgerSingleton.class,
                        PaymentEjb.class,
                        Receipt.class,
                        ShippingBean.class,
                        Races.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    /** The library exactly as users get it: the jar Maven just built. */
    static JavaArchive library() {
        File jar = new File(System.getProperty("project.jar", "target/idempotency-ee.jar"));
        return ShrinkWrap.createFromZipFile(JavaArchive.class, jar);
    }

    @Inject
    PaymentEjb payments;

    @Inject
    ShippingBean shipping;

    @Inject
    LedgerSingleton ledger;

    @Inject
    ExecutionCounter counter;

    @Resource
    ManagedExecutorService executor;

    @Test
    void statelessEjbRunsOncePerKeyAndEveryWaitingCallerGetsTheSameReceipt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String orderId = "order-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> payments.charge(orderId, 4_200));
            assertEquals(1, counter.count("ejb:" + orderId), "executions of the EJB method");
            for (Object o : outcomes) {
                assertEquals(new Receipt(orderId, 1, 4_200), o, "every caller gets the first receipt");
            }
        }
    }

    @Test
    void applicationScopedBeanRunsOncePerKeyAndRejectsConcurrentRepeats() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String shipmentId = "shipment-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> shipping.ship(shipmentId, 1_500));
            assertEquals(1, counter.count("cdi:" + shipmentId), "executions of the bean method");
            int receipts = 0;
            for (Object o : outcomes) {
                if (o instanceof Receipt r) {
                    assertEquals(new Receipt(shipmentId, 1, 1_500), r);
                    receipts++;
                } else {
                    assertInstanceOf(IdempotencyInProgressException.class, o, "a concurrent repeat is rejected");
                }
            }
            assertTrue(receipts >= 1, "the first caller gets its receipt");
            // After completion, a repeat replays without running.
            assertEquals(new Receipt(shipmentId, 1, 1_500), shipping.ship(shipmentId, 1_500));
            assertEquals(1, counter.count("cdi:" + shipmentId));
        }
    }

    @Test
    void anEjbWhoseTransactionRollsBackReleasesTheKey() {
        String orderId = "doomed-" + System.nanoTime();
        assertEquals(1, payments.doomed(orderId).run());
        assertEquals(2, payments.doomed(orderId).run(), "the rolled-back first call must not be replayed");
        assertEquals(2, counter.count("doomed:" + orderId));
    }

    @Test
    void ejbClientsSeeTheIdempotencyExceptionUnwrapped() throws Exception {
        String orderId = "capture-" + System.nanoTime();
        List<Object> outcomes = race(() -> payments.capture(orderId));
        assertEquals(1, counter.count("capture:" + orderId));
        int rejected = 0;
        for (Object o : outcomes) {
            if (!(o instanceof Receipt)) {
                assertInstanceOf(IdempotencyInProgressException.class, o, "not wrapped in EJBException");
                rejected++;
            }
        }
        assertTrue(rejected > 0, "some of the 32 concurrent callers were rejected");
        assertEquals(new Receipt(orderId, 1, 1), payments.capture(orderId), "replay after completion");
    }

    @Test
    void singletonEjbRunsOncePerKey() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String entryId = "entry-" + round + "-" + System.nanoTime();
            List<Object> outcomes = race(() -> ledger.post(entryId, 990));
            assertEquals(1, counter.count("singleton:" + entryId), "executions of the singleton method");
            for (Object o : outcomes) {
                if (!(o instanceof Receipt)) {
                    assertInstanceOf(IdempotencyInProgressException.class, o);
                }
            }
            assertEquals(new Receipt(entryId, 1, 990), ledger.post(entryId, 990));
        }
    }

    private List<Object> race(Callable<Object> call) throws InterruptedException {
        return Races.race(executor, CALLERS, call);
    }
}
