package dev.idempotency.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.it.app.ExecutionCounter;
import dev.idempotency.it.app.PaymentEjb;
import dev.idempotency.it.app.Receipt;
import dev.idempotency.it.app.ShippingBean;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
                .addClasses(ExecutionCounter.class, PaymentEjb.class, Receipt.class, ShippingBean.class, Races.class)
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

    /** Runs the call on 32 managed threads released together; returns each result or exception. */
    private List<Object> race(Callable<Object> call) throws InterruptedException {
        Races gate = new Races(CALLERS);
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            futures.add(executor.submit(() -> {
                gate.await();
                try {
                    return call.call();
                } catch (RuntimeException e) {
                    return e;
                }
            }));
        }
        List<Object> outcomes = new ArrayList<>();
        for (Future<Object> f : futures) {
            try {
                outcomes.add(f.get(2, TimeUnit.MINUTES));
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new AssertionError("a caller failed unexpectedly", e);
            }
        }
        return outcomes;
    }
}
