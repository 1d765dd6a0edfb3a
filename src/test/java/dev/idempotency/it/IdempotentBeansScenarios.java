package dev.idempotency.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.internal.cdi.ShapeRows;
import dev.idempotency.internal.cdi.Shapes;
import dev.idempotency.it.app.BmtCharges;
import dev.idempotency.it.app.CreditOverloads;
import dev.idempotency.it.app.DeclaredNotifier;
import dev.idempotency.it.app.DispatchBean;
import dev.idempotency.it.app.Effects;
import dev.idempotency.it.app.ExecutionCounter;
import dev.idempotency.it.app.LedgerSingleton;
import dev.idempotency.it.app.LongCharges;
import dev.idempotency.it.app.PaymentEjb;
import dev.idempotency.it.app.ProbedBean;
import dev.idempotency.it.app.Receipt;
import dev.idempotency.it.app.RefundService;
import dev.idempotency.it.app.ShippingBean;
import dev.idempotency.it.app.TxCharges;
import dev.idempotency.it.app.TxChargesEjb;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * In Payara Micro, the guarded beans of one test WAR, run by two deployments that differ only in
 * {@code idempotency.interceptor.priority}: {@link IdempotentBeansIT} at the default (100, outside
 * {@code @Transactional}) and {@link IdempotentBeansAtPriority1000IT} (inside it), and by the store
 * variants. The cases that depend on neither the priority nor the store (the shape matrix through an
 * EJB, the timeouts) are {@link IdempotentBeansIT}'s alone.
 *
 * <ul>
 *   <li>a @Stateless EJB and an @ApplicationScoped bean each run exactly once per key under 32
 *       concurrent callers, released at one instant;
 *   <li>the transaction matrix: for every {@code @Transactional} type and every EJB
 *       {@code @TransactionAttribute}, with the caller's transaction absent, committing or rolling
 *       back, the guarded method's effect is a row in PostgreSQL (written through the server's JTA
 *       datasource, no unique constraint): a retry runs again exactly when the first effect did not
 *       commit, and never adds a second row.
 * </ul>
 */
@ExtendWith(ArquillianExtension.class)
abstract class IdempotentBeansScenarios {

    private static final int CALLERS = 32;
    private static final int ROUNDS = 3;

    /**
     * The test WAR ({@link Deployments#war}): the test beans, and a JTA datasource to the tests'
     * PostgreSQL database ({@link Deployments#withPostgres}).
     *
     * @param name the WAR's name
     * @param config the lines of its microprofile-config.properties
     */
    static WebArchive deployment(String name, String... config) {
        return Deployments.withPostgres(
                Deployments.war(name)
                        .addPackage(Effects.class.getPackage())
                        .addClasses(Races.class, IdempotentBeansScenarios.class, Shapes.class, ShapeRows.class)
                        .addAsResource(
                                // CALLERS WAIT callers race for one key: every one of them may wait.
                                new StringAsset("idempotency.wait.max-per-key=" + CALLERS + "\n"
                                        + "idempotency.wait.max-joined=" + CALLERS + "\n"
                                        + String.join("\n", config) + "\n"),
                                "META-INF/microprofile-config.properties"),
                Effects.DATASOURCE);
    }

    /** The interceptor priority this deployment applies. */
    abstract int priority();

    @Inject
    PaymentEjb payments;

    @Inject
    ShippingBean shipping;

    @Inject
    LedgerSingleton ledger;

    @Inject
    ExecutionCounter counter;

    // By its standard name: Arquillian's field injection on Open Liberty leaves an unnamed @Resource null.
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

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

    @Inject
    DeclaredNotifier notifier;

    @Inject
    RefundService refunds;

    @Inject
    DispatchBean dispatch;

    @Inject
    CreditOverloads credits;

    /**
     * {@code @Idempotent} declared where CDI does not inherit bindings from (an interface method of a
     * CDI bean and of an EJB's {@code @Local} business interface, an overridden superclass method) runs
     * once per key as on the class; two overloads under one class-level name are two operations.
     */
    @Test
    void everyDeclarationStyleRunsOncePerKey() {
        String id = "decl-" + System.nanoTime();
        assertEquals(1, notifier.notifyProvider(id));
        assertEquals(1, notifier.notifyProvider(id), "interface method of a CDI bean: replayed");
        assertEquals(1, counter.count("notify:" + id), "interface method of a CDI bean: executions");
        assertEquals(1, refunds.refund(id, 300));
        assertEquals(1, refunds.refund(id, 300), "EJB business interface: replayed");
        assertEquals(1, counter.count("refund:" + id), "EJB business interface: executions");
        assertEquals(1, dispatch.dispatch(id));
        assertEquals(1, dispatch.dispatch(id), "overridden superclass method: replayed");
        assertEquals(1, counter.count("dispatch:" + id), "overridden superclass method: executions");
        assertEquals(1, credits.credit(id));
        assertEquals(2, credits.credit(id, 50), "the other overload is its own operation");
        assertEquals(1, credits.credit(id), "each overload replays its own outcome");
        assertEquals(2, credits.credit(id, 50), "each overload replays its own outcome");
        assertEquals(2, counter.count("credit:" + id), "overloads: one execution each");
        String other = id + "-other";
        assertEquals(1, notifier.notifyProvider(other), "the key is the interface's parameter: another id runs");
        assertEquals(1, refunds.refund(other, 300), "the key is the interface's parameter: another id runs");
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

    // ------------------------------------------------------------------ the transaction matrix

    @Inject
    TxCharges cdi;

    @Inject
    TxChargesEjb ejb;

    @Inject
    BmtCharges bmt;

    @Inject
    ProbedBean probed;

    @Inject
    Effects effects;

    /**
     * The caller's transaction, looked up in JNDI: Open Liberty's Arquillian enricher does not inject
     * {@code @Resource} into test classes (the field stayed null there).
     */
    private static UserTransaction callerTransaction() throws javax.naming.NamingException {
        return (UserTransaction) new javax.naming.InitialContext().lookup("java:comp/UserTransaction");
    }

    /** What surrounds the first call: no transaction, or one the caller commits or rolls back. */
    enum Caller {
        NONE,
        COMMIT,
        ROLLBACK
    }

    /** Where a method's work runs, relative to the caller's transaction. */
    enum Work {
        /** In the caller's transaction when there is one (REQUIRED, SUPPORTS, no annotation). */
        JOINS,
        /** In a transaction of its own or in none (REQUIRES_NEW, NOT_SUPPORTED, BMT). */
        INDEPENDENT,
        /** Refused without a caller's transaction, else joins it. */
        MANDATORY,
        /** Refused inside a caller's transaction, else runs without one. */
        NEVER;

        /** The effect rows the first call leaves, or -1 when the transaction rules refuse the call. */
        int rowsAfterFirst(Caller caller) {
            return switch (this) {
                case JOINS -> caller == Caller.ROLLBACK ? 0 : 1;
                case INDEPENDENT -> 1;
                case MANDATORY -> caller == Caller.NONE ? -1 : caller == Caller.COMMIT ? 1 : 0;
                case NEVER -> caller == Caller.NONE ? 1 : -1;
            };
        }
    }

    /** A guarded method called with a key; it returns its run number or throws. */
    @FunctionalInterface
    interface Charge {
        int call(String key) throws Exception;
    }

    record Case(String name, Work work, Charge charge) {}

    private List<Case> returning() {
        return List.of(
                new Case("cdi-none", Work.JOINS, cdi::none),
                new Case("cdi-required", Work.JOINS, cdi::required),
                new Case("cdi-requires-new", Work.INDEPENDENT, cdi::requiresNew),
                new Case("cdi-not-supported", Work.INDEPENDENT, cdi::notSupported),
                new Case("cdi-mandatory", Work.MANDATORY, cdi::mandatory),
                new Case("cdi-supports", Work.JOINS, cdi::supports),
                new Case("cdi-never", Work.NEVER, cdi::never),
                new Case("ejb-required", Work.JOINS, ejb::required),
                new Case("ejb-requires-new", Work.INDEPENDENT, ejb::requiresNew),
                new Case("ejb-not-supported", Work.INDEPENDENT, ejb::notSupported),
                new Case("ejb-mandatory", Work.MANDATORY, ejb::mandatory),
                new Case("ejb-supports", Work.JOINS, ejb::supports),
                new Case("ejb-never", Work.NEVER, ejb::never),
                new Case("ejb-bmt", Work.INDEPENDENT, bmt::charge));
    }

    @Test
    void theDeploymentAppliesItsInterceptorPriority() {
        String key = "probe-" + System.nanoTime();
        assertEquals(key, probed.call(key));
        assertEquals(key, probed.call(key));
        assertEquals(
                priority() < 500 ? 1 : 2,
                counter.count("probe:" + key),
                "calls the priority-500 probe saw: at " + priority() + " a replay returns "
                        + (priority() < 500 ? "before" : "after") + " it");
    }

    @Test
    void everyTransactionTypeSettlesWithTheTransactionItsWorkRanIn() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Case c : returning()) {
            for (Caller caller : Caller.values()) {
                runCase(c, caller, failures);
            }
        }
        assertTrue(failures.isEmpty(), "at priority " + priority() + ":\n" + String.join("\n", failures));
    }

    /**
     * Unchecked exceptions that do not roll back ({@code dontRollbackOn}, an application exception
     * with {@code rollback = false}) are kept when the transaction commits, since the method's work
     * committed; when it rolls back they release the key. A rolling-back exception releases it.
     */
    @Test
    void exceptionsFollowTheOutcomeOfTheTransactionTheWorkRanIn() throws Exception {
        List<String> failures = new ArrayList<>();
        List<Case> cases = List.of(
                new Case("cdi-required-nonfatal", Work.JOINS, cdi::requiredNonFatal),
                new Case("cdi-requires-new-nonfatal", Work.INDEPENDENT, cdi::requiresNewNonFatal),
                new Case("ejb-required-nonfatal", Work.JOINS, ejb::requiredNonFatal),
                new Case("ejb-requires-new-nonfatal", Work.INDEPENDENT, ejb::requiresNewNonFatal));
        for (Case c : cases) {
            for (Caller caller : Caller.values()) {
                runCase(c, caller, failures);
            }
        }
        for (Case c : List.of(
                new Case("cdi-requires-new-fatal", Work.INDEPENDENT, cdi::requiresNewFatal),
                new Case("ejb-requires-new-fatal", Work.INDEPENDENT, ejb::requiresNewFatal))) {
            for (Caller caller : Caller.values()) {
                // Its own transaction rolls back on the first run: no row, and the retry runs.
                String key = c.name() + "-" + caller + "-" + priority() + "-" + System.nanoTime();
                Object first = callAs(caller, c, key);
                int rowsAfterFirst = rows(key);
                Object retry = callAs(Caller.NONE, c, key);
                check(failures, c, caller, "first run failed: " + first, first instanceof Exception);
                check(failures, c, caller, "no row after the rolled-back first run", rowsAfterFirst == 0);
                check(
                        failures,
                        c,
                        caller,
                        "the retry ran and returned run 2 (was " + retry + ")",
                        Integer.valueOf(2).equals(retry));
                check(failures, c, caller, "one row after the retry (was " + rows(key) + ")", rows(key) == 1);
            }
        }
        assertTrue(failures.isEmpty(), "at priority " + priority() + ":\n" + String.join("\n", failures));
    }

    /**
     * Calls a case under {@code caller}, then retries with the same key in a committing transaction
     * (or none where the method refuses one), and checks the effect rows against the executions.
     */
    private void runCase(Case c, Caller caller, List<String> failures) throws Exception {
        String key = c.name() + "-" + caller + "-" + priority() + "-" + System.nanoTime();
        int expected = c.work().rowsAfterFirst(caller);
        Object first = callAs(caller, c, key);
        int rowsAfterFirst = rows(key);
        int executionsAfterFirst = effects.executions(key);
        if (expected < 0) {
            check(failures, c, caller, "refused by the transaction rules: " + first, first instanceof Exception);
            check(failures, c, caller, "refused call did not run", executionsAfterFirst == 0);
        } else {
            check(
                    failures,
                    c,
                    caller,
                    "rows after the first call == " + expected + " (were " + rowsAfterFirst + "; outcome " + first
                            + ")",
                    rowsAfterFirst == expected);
        }
        Caller retryAs = c.work() == Work.NEVER ? Caller.NONE : Caller.COMMIT;
        Object retry = callAs(retryAs, c, key);
        int rows = rows(key);
        int executions = effects.executions(key);
        check(failures, c, caller, "exactly one row after the retry (were " + rows + ")", rows == 1);
        if (rowsAfterFirst == 1) {
            check(
                    failures,
                    c,
                    caller,
                    "the retry after a committed effect replays (executions " + executions + ")",
                    executions == 1);
            check(
                    failures,
                    c,
                    caller,
                    "the replay hands back the first outcome (" + first + " vs " + retry + ")",
                    sameOutcome(first, retry));
        } else {
            check(
                    failures,
                    c,
                    caller,
                    "the retry after an undone effect runs (executions " + executions + ")",
                    executions == executionsAfterFirst + 1);
        }
    }

    private static boolean sameOutcome(Object a, Object b) {
        if (a instanceof Exception ea && b instanceof Exception eb) {
            return ea.getClass() == eb.getClass() && java.util.Objects.equals(ea.getMessage(), eb.getMessage());
        }
        return java.util.Objects.equals(a, b);
    }

    private static void check(List<String> failures, Case c, Caller caller, String what, boolean ok) {
        if (!ok) {
            failures.add(c.name() + " / caller " + caller + ": " + what);
        }
    }

    /** The call's result, or the exception it threw, as a value; the caller's transaction ended as told. */
    private Object callAs(Caller caller, Case c, String key) throws Exception {
        UserTransaction callerTransaction = callerTransaction();
        if (caller != Caller.NONE) {
            callerTransaction.begin();
        }
        Object outcome;
        try {
            outcome = c.charge().call(key);
        } catch (Exception e) {
            outcome = e;
        }
        if (caller == Caller.COMMIT) {
            try {
                callerTransaction.commit();
            } catch (jakarta.transaction.RollbackException e) {
                // The method marked the caller's transaction for rollback; the rows tell what happened.
            }
        } else if (caller == Caller.ROLLBACK) {
            callerTransaction.rollback();
        }
        return outcome;
    }

    @Inject
    LongCharges longCharges;

    /**
     * The keep-alive: a call that runs three times its lease (1 s) while three callers repeat it every
     * 100 ms runs once (one effect row in PostgreSQL); every repeat is refused as in progress, and the
     * first receipt is replayed afterwards.
     */
    @Test
    void aCallThatRunsThreeTimesItsLeaseWhileDuplicatesArriveRunsOnce() throws Exception {
        String id = "long-" + System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4, threads);
        try {
            Future<Receipt> first = pool.submit(() -> longCharges.settle(id));
            long started = System.nanoTime();
            while (effects.executions(id) == 0) {
                assertTrue(
                        System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10),
                        "the first call did not start within 10 s; done: " + first.isDone());
                Thread.sleep(20);
            }
            List<Future<List<Object>>> repeats = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                repeats.add(pool.submit(() -> {
                    List<Object> seen = new ArrayList<>();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (!first.isDone() && System.nanoTime() < deadline) {
                        try {
                            seen.add(longCharges.settle(id));
                        } catch (IdempotencyInProgressException e) {
                            seen.add(e);
                        }
                        Thread.sleep(100);
                    }
                    return seen;
                }));
            }
            Receipt receipt = first.get(30, TimeUnit.SECONDS);
            int repeated = 0;
            for (Future<List<Object>> r : repeats) {
                for (Object o : r.get(30, TimeUnit.SECONDS)) {
                    repeated++;
                    if (!(o instanceof IdempotencyInProgressException) && !receipt.equals(o)) {
                        throw new AssertionError("a repeat got " + o + " instead of 409 or " + receipt);
                    }
                }
            }
            assertTrue(repeated >= 3 * 3 * LongCharges.LEASE_MILLIS / 100 / 2, "repeats sent: " + repeated);
            assertEquals(1, rows(id), "effect rows of a call that ran three leases, after " + repeated + " repeats");
            assertEquals(1, effects.executions(id), "executions");
            assertEquals(receipt, longCharges.settle(id), "the replay");
            assertEquals(new Receipt(id, 1, 0), receipt);
        } finally {
            pool.shutdownNow();
        }
    }

    /** What the call returned, or what it threw. */
    static Object outcome(Callable<Object> call) {
        try {
            return call.call();
        } catch (Exception e) {
            return e;
        }
    }

    @BeforeEach
    void effectTable() throws SQLException {
        EffectRows.createTable(Effects.TABLE, "effect_key");
    }

    /** Rows of the key, counted on a connection of its own, outside the server's transactions. */
    static int rows(String key) throws SQLException {
        return EffectRows.count(Effects.TABLE, "effect_key", key);
    }

    private List<Object> race(Callable<Object> call) throws InterruptedException {
        // Threads of their own: a server's default executor may run fewer than CALLERS tasks at once,
        // and the callers would then deadlock at the start gate.
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS, threads);
        try {
            return Races.race(pool, CALLERS, call);
        } finally {
            pool.shutdownNow();
        }
    }
}
