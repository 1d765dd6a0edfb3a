package dev.idempotency.internal.stores.jpa.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.internal.core.KeyReader;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.stores.jpa.it.app.BusinessRows;
import dev.idempotency.internal.stores.jpa.it.app.JoinedOrders;
import dev.idempotency.internal.stores.jpa.it.app.JoinedOrdersResource;
import dev.idempotency.internal.stores.jpa.it.app.SeparateOrders;
import dev.idempotency.it.Deployments;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JPA store in the container, on the server's data source (plain JDBC, so the same on every server
 * and JPA provider), the table created at startup. One deployment for both transaction modes, chosen
 * per operation. Each subclass deploys it on one data source: {@link JpaStoreIT} on the server's
 * default database, {@link JpaStorePostgresIT} on PostgreSQL, and {@link JpaStoreDerbyIT} on
 * GlassFish's default database, Derby, where the store refuses the joined mode and so only the
 * separate mode's tests run (they are in this class; the joined mode's are in {@link
 * AbstractJoinedJpaStoreIT}).
 */
@ExtendWith(ArquillianExtension.class)
abstract class AbstractJpaStoreIT {

    private static final int CALLERS = 16;

    /**
     * The deployment: the test's beans and the library, configured for the JPA store.
     *
     * @param name the archive's name
     * @param datasource the JNDI name of the store's data source, or {@code null} for the default
     */
    static WebArchive deployment(String name, String datasource) {
        return deployment(name, datasource, true);
    }

    /**
     * The deployment, with or without the operations configured for the joined mode.
     *
     * @param joined whether {@link JoinedOrders} and {@link SeparateOrders#MISUSED} use the joined mode
     *     (a database that cannot join refuses the deployment that names it)
     */
    static WebArchive deployment(String name, String datasource, boolean joined) {
        String config = "idempotency.store=jpa\n"
                + (joined
                        ? JoinedOrders.class.getName() + "/place/Idempotent/transaction=joined\n"
                                + JoinedOrdersResource.class.getName() + "/place/Idempotent/transaction=joined\n"
                                + SeparateOrders.class.getName() + "/misused/Idempotent/transaction=joined\n"
                        : "")
                + (datasource == null ? "" : "idempotency.jpa.datasource=" + datasource + "\n")
                // CALLERS WAIT callers race for one key: every one of them may wait.
                + "idempotency.wait.max-per-key=" + CALLERS + "\n"
                + "idempotency.wait.max-joined=" + CALLERS + "\n";
        return Deployments.war(name)
                .addPackage(BusinessRows.class.getPackage())
                .addClasses(AbstractJpaStoreIT.class, AbstractJoinedJpaStoreIT.class, Races.class)
                .addAsResource(new StringAsset(config), "META-INF/microprofile-config.properties");
    }

    @Inject
    JoinedOrders joined;

    @Inject
    SeparateOrders separate;

    @Inject
    BusinessRows rows;

    // By its standard name: Arquillian's field injection on Open Liberty leaves an unnamed @Resource null.
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @BeforeEach
    void table() {
        rows.createTable();
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

    /** The store key the interceptor uses for a single-key method called with {@code orderId}. */
    static String storeKey(String operation, String orderId) {
        try {
            String clientKey = KeyReader.of(SeparateOrders.class.getMethod("place", String.class))
                    .read(new Object[] {orderId});
            return RecordKey.of(operation, "", clientKey).storeKey();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Races on threads of its own, made by the container's thread factory: a server's default managed
     * executor may run fewer tasks at once than there are callers (WildFly's does, on two cores), and
     * the callers wait for each other at the start gate.
     */
    List<Object> race(Callable<Object> call) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS, threads);
        try {
            return Races.race(pool, CALLERS, call);
        } finally {
            pool.shutdownNow();
        }
    }
}
