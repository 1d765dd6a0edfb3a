package dev.idempotency.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.stores.infinispan.InfinispanLocalStore;
import dev.idempotency.it.app.ExecutionCounter;
import dev.idempotency.it.app.PaymentEjb;
import dev.idempotency.it.app.Receipt;
import dev.idempotency.it.app.ShippingBean;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Infinispan store (a local cache) in a WAR that bundles {@code infinispan-core} as the README
 * says, on every server: it deploys with nothing else configured (on WildFly it needs the JDK's
 * {@code jdk.unsupported} module, which the library's manifest asks for), and guards an EJB and a CDI
 * bean exactly once under concurrent callers.
 */
@ExtendWith(ArquillianExtension.class)
class InfinispanStoreIT {

    private static final int CALLERS = 32;

    @Deployment
    static WebArchive deployment() {
        return Deployments.war("ispn-store-it.war")
                .addAsLibraries(Deployments.infinispanLibraries())
                .addClasses(ExecutionCounter.class, PaymentEjb.class, Receipt.class, ShippingBean.class, Races.class)
                .addAsResource(
                        new StringAsset("idempotency.store=infinispan\n"
                                // CALLERS WAIT callers race for one key: every one of them may wait.
                                + "idempotency.wait.max-per-key=" + CALLERS + "\n"
                                + "idempotency.wait.max-joined=" + CALLERS + "\n"),
                        "META-INF/microprofile-config.properties");
    }

    @Inject
    IdempotencyRuntime runtime;

    @Inject
    PaymentEjb payments;

    @Inject
    ShippingBean shipping;

    @Inject
    ExecutionCounter counter;

    // By its standard name: Arquillian's field injection on Open Liberty leaves an unnamed @Resource null.
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @Test
    void theConfiguredStoreIsInfinispan() {
        // toString, not getClass: the store may sit behind a CDI client proxy, which delegates it.
        String store = runtime.engine().store().toString();
        assertTrue(store.startsWith(InfinispanLocalStore.class.getName() + "@"), store);
    }

    @Test
    void anEjbAndACdiBeanRunOncePerKeyOnTheInfinispanStore() throws Exception {
        String orderId = "ispn-order-" + System.nanoTime();
        for (Object o : race(() -> payments.charge(orderId, 700))) {
            assertEquals(new Receipt(orderId, 1, 700), o, "every waiting caller gets the first receipt");
        }
        assertEquals(1, counter.count("ejb:" + orderId));

        String shipmentId = "ispn-shipment-" + System.nanoTime();
        race(() -> shipping.ship(shipmentId, 300));
        assertEquals(new Receipt(shipmentId, 1, 300), shipping.ship(shipmentId, 300), "replayed");
        assertEquals(1, counter.count("cdi:" + shipmentId));
    }

    private List<Object> race(Callable<Object> call) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS, threads);
        try {
            return Races.race(pool, CALLERS, call);
        } finally {
            pool.shutdownNow();
        }
    }
}
