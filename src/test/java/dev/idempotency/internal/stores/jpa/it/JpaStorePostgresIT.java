package dev.idempotency.internal.stores.jpa.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.core.KeyReader;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.stores.jpa.it.app.rollback.BodyRuns;
import dev.idempotency.internal.stores.jpa.it.app.rollback.LedgerAccount;
import dev.idempotency.internal.stores.jpa.it.app.rollback.LedgerAccounts;
import dev.idempotency.internal.stores.jpa.it.app.rollback.LedgerEntry;
import dev.idempotency.internal.stores.jpa.it.app.rollback.NestedFailure;
import dev.idempotency.internal.stores.jpa.it.app.rollback.RollbackOrdersBean;
import dev.idempotency.internal.stores.jpa.it.app.rollback.RollbackOrdersEjb;
import dev.idempotency.internal.stores.jpa.it.app.rollback.RollbackOrdersResource;
import dev.idempotency.internal.stores.jpa.it.app.rollback.RollbackWork;
import dev.idempotency.internal.stores.jpa.it.app.rollback.RollbackWork.Ending;
import dev.idempotency.internal.stores.jpa.it.app.rollback.UniqueRow;
import dev.idempotency.internal.stores.jpa.it.app.rollback.UniqueTable;
import dev.idempotency.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JPA store on PostgreSQL: a JTA data source the application defines in its web.xml, named by
 * {@code idempotency.jpa.datasource}; the business rows of the joined mode are in the same database.
 * Here also the joined calls whose own work marks the caller's transaction for rollback ({@link
 * RollbackWork}, with a JPA persistence unit on the same data source).
 */
class JpaStorePostgresIT extends AbstractJoinedJpaStoreIT {

    /** The application's data source. */
    static final String DATASOURCE = "java:app/jdbc/jpaIt";

    @Deployment
    static WebArchive deployment() {
        String persistence = String.join(
                "\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<persistence xmlns=\"https://jakarta.ee/xml/ns/persistence\" version=\"3.0\">",
                "  <persistence-unit name=\"rollback-it\" transaction-type=\"JTA\">",
                "    <jta-data-source>" + DATASOURCE + "</jta-data-source>",
                "    <class>" + UniqueRow.class.getName() + "</class>",
                "    <class>" + LedgerAccount.class.getName() + "</class>",
                "    <class>" + LedgerEntry.class.getName() + "</class>",
                "    <exclude-unlisted-classes>true</exclude-unlisted-classes>",
                "  </persistence-unit>",
                "</persistence>",
                "");
        return Deployments.withPostgres(deployment("jpa-store-pg-it.war", DATASOURCE), DATASOURCE)
                .addPackage(RollbackWork.class.getPackage())
                .addAsResource(new StringAsset(persistence), "META-INF/persistence.xml");
    }

    // ------------------------------------------------------------------ entities as payload and result

    @Inject
    LedgerAccounts accounts;

    /**
     * A JPA entity as the server's provider makes it by default (EclipseLink weaves it on Payara,
     * GlassFish and Liberty; Hibernate on WildFly), with an unloaded lazy association, is a payload and
     * a result: the deployment starts (it failed on Payara, naming {@code _persistence_fetchGroup}), a
     * repeat with the account loaded anew replays the stored entry without a second run or a second
     * entry in PostgreSQL, and the same request with another account state is a mismatch.
     */
    @Test
    void anEntityLoadedByTheServersProviderIsAPayloadAndAResult() throws Exception {
        accounts.createTable();
        String id = "acc-" + System.nanoTime();
        accounts.open(id, 1_000, id + "-parent");
        String request = "credit-" + id;
        LedgerEntry first = accounts.credit(request, accounts.load(id), 250);
        assertEquals(250, first.getCents());
        for (int i = 0; i < 3; i++) {
            LedgerEntry again = accounts.credit(request, accounts.load(id), 250);
            assertEquals(first.getId(), again.getId(), "the stored entry replayed");
            assertEquals(id, again.getAccountId());
        }
        assertEquals(1, runs.of(request), "one run");
        assertEquals(1, accounts.entries(id), "one entry in PostgreSQL");
        LedgerAccount changed = accounts.load(id);
        changed.setBalance(changed.getBalance() + 1);
        Throwable t = failure(() -> accounts.credit(request, changed, 250));
        assertTrue(
                t instanceof dev.idempotency.IdempotencyKeyMismatchException,
                () -> "another balance under the same request: " + describe(t));
        assertEquals(1, accounts.entries(id), "still one entry");
    }

    // ------------------------------------------------------------------ work that marks its transaction for rollback

    @Inject
    RollbackOrdersEjb ejb;

    @Inject
    RollbackOrdersBean bean;

    @Inject
    BodyRuns runs;

    @Inject
    UniqueTable unique;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction ut;

    @BeforeEach
    void uniqueTable() {
        unique.create();
    }

    private static final Ending[] FAILING = {Ending.DUPLICATE, Ending.NESTED};

    /** The failures that mark the caller's transaction for rollback, and what the caller gets. */
    private static Class<? extends RuntimeException> thrown(Ending ending) {
        return ending == Ending.DUPLICATE ? PersistenceException.class : NestedFailure.class;
    }

    /**
     * A joined EJB whose work marks its transaction for rollback: the caller gets that failure (an
     * EJB system exception, the flush's, wrapped by the container as always), not "store unavailable";
     * nothing committed, and a retry runs the body again, until a run that succeeds commits once.
     */
    @Test
    void aJoinedEjbWhoseWorkMarksItsTransactionForRollbackGetsItsOwnException() throws Exception {
        for (Ending ending : FAILING) {
            ejbCall(ending);
        }
    }

    private void ejbCall(Ending ending) throws Exception {
        String orderId = "rollback-ejb-" + ending + "-" + System.nanoTime();
        String storeKey = storeKey(RollbackOrdersEjb.class, RollbackOrdersEjb.OPERATION, orderId, ending);
        for (int attempt = 1; attempt <= 2; attempt++) {
            Throwable t = failure(() -> ejb.place(orderId, ending));
            assertOwn(thrown(ending), t, attempt);
            assertEquals(attempt, runs.of(orderId), "the body ran on attempt " + attempt);
            assertEquals(0, rows.count(orderId), "nothing committed");
            assertEquals(0, rows.records(storeKey), "no record: the claim rolled back");
        }
        assertEquals("placed " + orderId, ejb.place(orderId, Ending.SUCCEED), "a retry that succeeds");
        assertEquals("placed " + orderId, ejb.place(orderId, Ending.SUCCEED), "and its repeat replays");
        assertEquals(3, runs.of(orderId), "runs");
        assertEquals(1, rows.count(orderId), "one committed effect");
    }

    /** The same for a joined {@code @Transactional(MANDATORY)} CDI bean in its caller's transaction. */
    @Test
    void aJoinedTransactionalBeanWhoseWorkMarksItsTransactionForRollbackGetsItsOwnException() throws Exception {
        for (Ending ending : FAILING) {
            beanCall(ending);
        }
    }

    private void beanCall(Ending ending) throws Exception {
        String orderId = "rollback-cdi-" + ending + "-" + System.nanoTime();
        for (int attempt = 1; attempt <= 2; attempt++) {
            ut.begin();
            try {
                Throwable t = failure(() -> bean.place(orderId, ending));
                assertOwn(thrown(ending), t, attempt);
                assertTrue(thrown(ending).isInstance(t), () -> "the caller got it unwrapped: " + describe(t));
                assertEquals(Status.STATUS_MARKED_ROLLBACK, ut.getStatus(), "the work marked the transaction");
            } finally {
                ut.rollback();
            }
            assertEquals(attempt, runs.of(orderId), "the body ran on attempt " + attempt);
            assertEquals(0, rows.count(orderId), "nothing committed");
        }
        for (int call = 0; call < 2; call++) {
            ut.begin();
            assertEquals("placed " + orderId, bean.place(orderId, Ending.SUCCEED));
            ut.commit();
        }
        assertEquals(3, runs.of(orderId), "a retry that succeeds, then a replay");
        assertEquals(1, rows.count(orderId), "one committed effect");
    }

    /**
     * A joined resource method whose work marks the filter's transaction for rollback: the client gets
     * the application's own mapped response (409 for the duplicate row, 500 for the nested step), not
     * 503; nothing committed, and a retry with the same key runs again.
     */
    @Test
    void aJoinedResourceWhoseWorkMarksItsTransactionForRollbackAnswersWithTheApplicationsResponse() throws Exception {
        for (Ending ending : FAILING) {
            httpCall(ending);
        }
    }

    private void httpCall(Ending ending) throws Exception {
        String orderId = "rollback-http-" + ending + "-" + System.nanoTime();
        String key = UUID.randomUUID().toString();
        int status = ending == Ending.DUPLICATE ? 409 : 500;
        String body = ending == Ending.DUPLICATE ? "duplicate order row" : "nested step failed";
        for (int attempt = 1; attempt <= 2; attempt++) {
            HttpResponse<String> r = postRollback(orderId, key, ending);
            int n = attempt;
            assertEquals(status, r.statusCode(), () -> "attempt " + n + ": " + r.body());
            assertEquals(body, r.body(), "the application's own answer");
            assertEquals(attempt, runs.of(orderId), "the body ran on attempt " + attempt);
            assertEquals(0, rows.count(orderId), "nothing committed");
            assertEquals(0, rows.records(httpStoreKey(key)), "no record: the claim rolled back");
        }
        HttpResponse<String> ok = postRollback(orderId, key, Ending.SUCCEED);
        assertEquals(201, ok.statusCode(), ok::body);
        HttpResponse<String> again = postRollback(orderId, key, Ending.SUCCEED);
        assertEquals(201, again.statusCode(), again::body);
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""), "a repeat replays");
        assertEquals(3, runs.of(orderId), "runs");
        assertEquals(1, rows.count(orderId), "one committed effect");
    }

    private HttpResponse<String> postRollback(String orderId, String key, Ending ending) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        Deployments.loopback(deployed).resolve("api/rollback-orders"))
                .header("Content-Type", "text/plain")
                .header("Idempotency-Key", key)
                .header("X-Ending", ending.name())
                .timeout(Duration.ofMinutes(1))
                .POST(HttpRequest.BodyPublishers.ofString(orderId))
                .build();
        return Deployments.httpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static Throwable failure(Callable<?> call) {
        try {
            Object result = call.call();
            return fail("expected a failure, got " + result);
        } catch (Exception e) {
            return e;
        }
    }

    /**
     * That {@code t} is the work's own failure of type {@code own}, or an {@link EJBException} around it
     * (how an EJB container hands on a system exception), and that no "store unavailable" is in it.
     */
    private static void assertOwn(Class<? extends Throwable> own, Throwable t, int attempt) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            assertFalse(
                    c instanceof IdempotencyStoreUnavailableException,
                    () -> "attempt " + attempt + ": the guard replaced the work's exception: " + describe(t));
        }
        Throwable at = t;
        while (at instanceof EJBException && at.getCause() != null && !own.isInstance(at)) {
            at = at.getCause();
        }
        Throwable found = at;
        assertTrue(own.isInstance(found), () -> "attempt " + attempt + ": not a " + own.getName() + ": " + describe(t));
    }

    private static String describe(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            s.append(c).append(" <- ");
        }
        return s.toString();
    }

    /** The store key the interceptor uses for {@code place(orderId, ending)} of a bean class. */
    private static String storeKey(Class<?> beanClass, String operation, String orderId, Ending ending)
            throws NoSuchMethodException {
        String clientKey = KeyReader.of(beanClass.getMethod("place", String.class, Ending.class))
                .read(new Object[] {orderId, ending});
        return RecordKey.of(operation, "", clientKey).storeKey();
    }

    /** The record of a key sent by an unauthenticated client (the filter's default scope). */
    private static String httpStoreKey(String key) {
        return RecordKey.of(RollbackOrdersResource.OPERATION, "anonymous", key).storeKey();
    }
}
