package dev.idempotency.it;

import static dev.idempotency.it.IdempotentBeansScenarios.outcome;
import static dev.idempotency.it.IdempotentBeansScenarios.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.internal.cdi.ShapeRows;
import dev.idempotency.internal.cdi.ShapeRows.Shape;
import dev.idempotency.it.app.AsyncBookings;
import dev.idempotency.it.app.ShapesEjb;
import dev.idempotency.it.app.TimedCharges;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * {@link IdempotentBeansScenarios} at the default interceptor priority (100, outside @Transactional),
 * on the memory store; and the cases that depend on neither the priority nor the store, which run in
 * this deployment only: the shape matrix through an EJB, and the timeouts.
 */
class IdempotentBeansIT extends IdempotentBeansScenarios {

    @Deployment
    static WebArchive deployment() {
        return deployment("beans-it.war");
    }

    @Override
    int priority() {
        return 100;
    }

    @Inject
    ShapesEjb shapesEjb;

    /**
     * The shape matrix ({@link ShapeRows}) through an EJB, on the server's own EJB container and JSON-B:
     * for every argument shape, as the key an equal value (another instance) replays and a value that
     * differs in one piece of state runs; as the payload under one key an equal value replays, a changed
     * one is a mismatch, and the changed one under its own key runs.
     */
    @Test
    void everyArgumentShapeIsReadWholeThroughAnEjb() {
        List<String> failures = new ArrayList<>();
        ShapeRows.all().forEach(shape -> checkShape(shape, failures));
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    private <T> void checkShape(Shape<T> shape, List<String> failures) {
        String first = shape.asKey().apply(shapesEjb, shape.value().get());
        if (!first.equals(shape.asKey().apply(shapesEjb, shape.value().get()))) {
            failures.add(shape + " as the key: an equal value ran again");
        }
        if (first.equals(shape.asKey().apply(shapesEjb, shape.other().get()))) {
            failures.add(shape + " as the key: a value that differs in one piece of state was replayed");
        }
        String key = "ejb-" + shape.name() + "-" + System.nanoTime();
        String payload = shape.asPayload().apply(shapesEjb, key, shape.value().get());
        if (!payload.equals(
                shape.asPayload().apply(shapesEjb, key, shape.value().get()))) {
            failures.add(shape + " as the payload: an equal value under the same key ran again");
        }
        Object changed = outcome(
                () -> shape.asPayload().apply(shapesEjb, key, shape.other().get()));
        if (!(changed instanceof IdempotencyKeyMismatchException)) {
            failures.add(shape + " as the payload: a changed value under the same key gave " + changed);
        }
        if (payload.equals(
                shape.asPayload().apply(shapesEjb, key + "-other", shape.other().get()))) {
            failures.add(shape + " as the payload: the changed value under its own key was replayed");
        }
    }

    @Inject
    TimedCharges timed;

    /**
     * A stage bounded by {@code orTimeout} fails its caller while the work goes on: a retry meanwhile,
     * and after the work wrote its row, and two leases later, is refused as in progress. The work ran
     * once: one effect row.
     */
    @Test
    void aStageThatTimesOutHoldsTheKeyWhileItsWorkRunsAndAfter() throws Exception {
        String id = "or-timeout-" + System.nanoTime();
        assertHeldAfterTheTimeout(id, () -> stageOutcome(timed.orTimeout(id)), "java.util.concurrent.TimeoutException");
    }

    /**
     * MicroProfile Fault Tolerance's {@code @Timeout}, with and without {@code @Asynchronous}: its
     * {@code TimeoutException} reaches the caller while (or after) the body writes its row; a retry
     * meanwhile is refused as in progress, and once the body ended (past the lease) its result is stored
     * and replayed. Payara has Fault Tolerance, and so do Open Liberty and WildFly as the test
     * servers are set up. GlassFish has none: there the annotations are inert, and the check is that the
     * method runs once and replays as any guarded method.
     */
    @Test
    void aFaultToleranceTimeoutStoresTheBodysResultOnceItEnds() throws Exception {
        if (Thread.currentThread()
                        .getContextClassLoader()
                        .getResource("org/eclipse/microprofile/faulttolerance/Timeout.class")
                == null) {
            String id = "no-ft-" + System.nanoTime();
            Object first = stageOutcome(timed.faultToleranceAsync(id));
            assertEquals("charged " + id + " #1", first, "without Fault Tolerance: the work's result");
            assertEquals(first, stageOutcome(timed.faultToleranceAsync(id)), "the replay");
            assertEquals(1, rows(id), "effect rows of the key");
            return;
        }
        String async = "ft-async-" + System.nanoTime();
        Callable<Object> asyncCall = () -> stageOutcome(timed.faultToleranceAsync(async));
        Object asyncFirst = outcome(asyncCall);
        assertEquals(FT_TIMEOUT, asyncFirst.getClass().getName(), "the first call: " + asyncFirst);
        assertInstanceOf(IdempotencyInProgressException.class, outcome(asyncCall), "a retry while the body runs");
        assertStoredOnceTheBodyEnded(async, asyncCall);

        // Synchronous: the caller's thread runs the work, so the retry comes from another thread.
        String sync = "ft-sync-" + System.nanoTime();
        ExecutorService pool = Executors.newSingleThreadExecutor(threads);
        try {
            Future<Object> first = pool.submit(() -> outcome(() -> timed.faultToleranceSync(sync)));
            awaitExecutions(sync, 1);
            assertInstanceOf(
                    IdempotencyInProgressException.class,
                    outcome(() -> timed.faultToleranceSync(sync)),
                    "a retry while the first call runs");
            Object firstOutcome = first.get(30, TimeUnit.SECONDS);
            assertEquals(FT_TIMEOUT, firstOutcome.getClass().getName(), "the first call: " + firstOutcome);
        } finally {
            pool.shutdownNow();
        }
        assertStoredOnceTheBodyEnded(sync, () -> timed.faultToleranceSync(sync));
    }

    /** After the body's row is written (past the lease), a retry gets its result (in progress for at most 10 s). */
    private void assertStoredOnceTheBodyEnded(String id, Callable<Object> call) throws Exception {
        awaitTheEffectRow(id);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Object retry;
        while ((retry = outcome(call)) instanceof IdempotencyInProgressException && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals("charged " + id + " #1", retry, "a retry after the body ended: its stored result");
        assertEquals(1, rows(id), "effect rows of the key");
        assertEquals(1, timed.started(id), "starts of the key's work");
        assertEquals(1, effects.executions(id), "executions of the key");
    }

    private static final String FT_TIMEOUT = "org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException";

    private void assertHeldAfterTheTimeout(String id, Callable<Object> call, String timeout) throws Exception {
        Object first = outcome(call);
        assertEquals(timeout, first.getClass().getName(), "the first call: " + first);
        assertInstanceOf(IdempotencyInProgressException.class, outcome(call), "a retry while the timed-out work runs");
        assertHeldPastTheLease(id, call);
    }

    /** After the work's row is written, and two leases later, a retry is refused and nothing runs again. */
    private void assertHeldPastTheLease(String id, Callable<Object> call) throws Exception {
        awaitTheEffectRow(id);
        assertInstanceOf(IdempotencyInProgressException.class, outcome(call), "a retry after the work ended");
        Thread.sleep(2 * java.time.Duration.parse(TimedCharges.LEASE).toMillis());
        assertInstanceOf(IdempotencyInProgressException.class, outcome(call), "a retry two leases later");
        assertEquals(1, rows(id), "effect rows of the key");
        assertEquals(1, timed.started(id), "starts of the key's work");
        assertEquals(1, effects.executions(id), "executions of the key");
    }

    private void awaitTheEffectRow(String id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (rows(id) < 1) {
            assertTrue(
                    System.nanoTime() < deadline,
                    "the work's effect row within 30 s; executions " + effects.executions(id));
            Thread.sleep(20);
        }
    }

    private void awaitExecutions(String id, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (timed.started(id) < expected) {
            assertTrue(System.nanoTime() < deadline, "execution " + expected + " of " + id + " within 30 s");
            Thread.sleep(5);
        }
    }

    @Inject
    AsyncBookings asyncBookings;

    /**
     * A Jakarta Concurrency {@code @Asynchronous} method completes the caller's future from inside its
     * body, inside the guard, which stores the outcome a little later (here after an interceptor's 20 ms,
     * as after a commit): that future must still complete only after the outcome is stored. Called
     * again as soon as its future completed, 100 keys: every repeat is the replay, none is refused as
     * in progress, and each key ran once.
     */
    @Test
    void aConcurrencyAsynchronousMethodReplaysAsSoonAsItsFutureCompleted() throws Exception {
        // Measured on Concurro (Payara, GlassFish), whose @Asynchronous interceptor runs outside the guard;
        // WildFly's and Open Liberty's implementations are not verified yet (issue note).
        java.util.concurrent.CompletableFuture<?> probe = asyncBookings.book("async-probe-" + System.nanoTime());
        probe.get(30, java.util.concurrent.TimeUnit.SECONDS);
        // An aborted assumption is an error under Arquillian on Open Liberty: not Concurro, nothing measured.
        if (!probe.getClass().getName().startsWith("org.glassfish.concurro")
                && !probe.getClass().getName().startsWith("org.glassfish.enterprise.concurrent")) {
            return;
        }
        List<String> failures = new ArrayList<>();
        String prefix = "async-" + System.nanoTime() + "-";
        for (int i = 0; i < 100; i++) {
            String id = prefix + i;
            Object first = futureOutcome(asyncBookings.book(id));
            Object again = futureOutcome(asyncBookings.book(id));
            if (!("booked " + id + " #1").equals(first) || !first.equals(again)) {
                failures.add(id + ": first " + first + ", right after it " + again);
            }
            if (asyncBookings.runs(id) != 1) {
                failures.add(id + ": ran " + asyncBookings.runs(id) + " times");
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of 100 keys failed:\n" + String.join("\n", failures));
    }

    /** The future's value, or the cause it failed with under the container's ExecutionException wrappers. */
    private static Object futureOutcome(java.util.concurrent.CompletableFuture<?> future) throws Exception {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e;
            while (cause instanceof java.util.concurrent.ExecutionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause.toString();
        }
    }

    private static Object stageOutcome(java.util.concurrent.CompletionStage<?> stage) throws Exception {
        try {
            return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }
}
