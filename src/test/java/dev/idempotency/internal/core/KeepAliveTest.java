package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.DelegatingStore;
import dev.idempotency.spi.IdempotencyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lease keep-alive, on the memory store with the system clock (real time, real threads). */
class KeepAliveTest {

    private static final Duration LEASE = Duration.ofMillis(600);

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    private final ExecutorService callers = Executors.newFixedThreadPool(5);

    private final List<KeepAlive> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(KeepAlive::stop);
        scheduler.shutdownNow();
        callers.shutdownNow();
    }

    private static OperationPolicy policy(Duration lease) {
        return new OperationPolicy(
                "op", Duration.ofHours(1), lease, InProgressPolicy.REJECT, ExceptionPolicy.DEFAULT, false);
    }

    private IdempotencyEngine engine(IdempotencyStore store, KeepAlive keepAlive) {
        return new IdempotencyEngine(
                store, GlobalSettings.DEFAULT_RETRY_AFTER, IdempotencyObserver.NONE, WaitLimits.DEFAULT, keepAlive);
    }

    private KeepAlive on() {
        KeepAlive keepAlive = KeepAlive.on(scheduler, KeepAlive.DEFAULT_MAX_DURATION);
        started.add(keepAlive);
        return keepAlive;
    }

    /**
     * One call runs three times its lease while three callers send duplicates every 20 ms; returns how
     * many times the operation ran. A duplicate that gets the key runs and completes, as a real one
     * would.
     */
    private int executionsOfACallThatRunsThreeLeases(IdempotencyEngine engine) throws Exception {
        OperationPolicy policy = policy(LEASE);
        RecordKey key = RecordKey.of("op", "", "slow-" + System.nanoTime());
        AtomicInteger executions = new AtomicInteger();
        AtomicBoolean firstDone = new AtomicBoolean();
        CountDownLatch firstRuns = new CountDownLatch(1);
        Future<?> first = callers.submit(() -> {
            Admission.Owned owned = (Admission.Owned) engine.begin(policy, key, "fp");
            executions.incrementAndGet();
            firstRuns.countDown();
            try {
                Thread.sleep(LEASE.toMillis() * 3 + 100);
            } finally {
                engine.complete(owned, new byte[] {1});
                firstDone.set(true);
            }
            return null;
        });
        assertThat(firstRuns.await(10, TimeUnit.SECONDS))
                .as("the first call started")
                .isTrue();
        List<Future<?>> duplicates = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            duplicates.add(callers.submit(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!firstDone.get() && System.nanoTime() < deadline) {
                    try {
                        Admission a = engine.begin(policy, key, "fp");
                        if (a instanceof Admission.Owned owned) {
                            executions.incrementAndGet();
                            engine.complete(owned, new byte[] {2});
                        }
                    } catch (IdempotencyInProgressException refused) {
                        // the first call still holds the key: as it should
                    }
                    Thread.sleep(20);
                }
                return null;
            }));
        }
        first.get(20, TimeUnit.SECONDS);
        for (Future<?> d : duplicates) {
            d.get(20, TimeUnit.SECONDS);
        }
        return executions.get();
    }

    @Test
    void aCallRunningThreeTimesItsLeaseWhileDuplicatesArriveRunsOnce() throws Exception {
        assertThat(executionsOfACallThatRunsThreeLeases(engine(new MemoryIdempotencyStore(), on())))
                .as("executions of one key whose call ran three leases")
                .isEqualTo(1);
    }

    @Test
    void withoutTheKeepAliveTheSameScenarioRunsTwice() throws Exception {
        // The control: the scenario above does catch a takeover, so its 1 means something.
        assertThat(executionsOfACallThatRunsThreeLeases(engine(new MemoryIdempotencyStore(), KeepAlive.OFF)))
                .as("executions without the keep-alive")
                .isGreaterThan(1);
    }

    @Test
    void renewalStopsWhenTheCallIsCompletedReleasedOrHeld() throws Exception {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore();
        KeepAlive keepAlive = on();
        IdempotencyEngine engine = engine(store, keepAlive);
        OperationPolicy policy = policy(LEASE);

        Admission.Owned completed = (Admission.Owned) engine.begin(policy, RecordKey.of("op", "", "c"), "fp");
        Admission.Owned released = (Admission.Owned) engine.begin(policy, RecordKey.of("op", "", "r"), "fp");
        RecordKey heldKey = RecordKey.of("op", "", "h");
        Admission.Owned held = (Admission.Owned) engine.begin(policy, heldKey, "fp");
        assertThat(keepAlive.tracked()).isEqualTo(3);

        engine.complete(completed, new byte[] {1});
        engine.release(released);
        engine.hold(held);
        assertThat(keepAlive.tracked()).isZero();

        // A held claim (a timeout: its work may still run) is not renewed, but held for the retention.
        assertThat(store.read(heldKey.storeKey()).orElseThrow().expiresAt())
                .as("the held claim's end")
                .isAfter(java.time.Instant.now().plus(policy.ttl()).minusSeconds(60));
        Thread.sleep(LEASE.toMillis() + 200);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.begin(policy, heldKey, "fp"))
                .as("a duplicate after the held claim's lease")
                .isInstanceOf(IdempotencyInProgressException.class);
    }

    @Test
    void aClaimIsRenewedAtMostForTheMaximumDuration() throws Exception {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore();
        KeepAlive keepAlive = KeepAlive.on(scheduler, Duration.ofMillis(400));
        IdempotencyEngine engine = engine(store, keepAlive);
        OperationPolicy policy = policy(LEASE);
        RecordKey key = RecordKey.of("op", "", "forever");
        engine.begin(policy, key, "fp"); // never settled: a stage nobody completes

        assertThat(waitFor(Duration.ofSeconds(5), () -> keepAlive.tracked() == 0))
                .as("renewal stopped after the maximum duration; still tracked: %d", keepAlive.tracked())
                .isTrue();
        Thread.sleep(LEASE.toMillis() + 200);
        assertThat(engine.begin(policy, key, "fp"))
                .as("the key after the last renewal's lease")
                .isInstanceOf(Admission.Owned.class);
    }

    @Test
    void aStoreThatCannotRenewLeavesCallsOnTheirLease() throws Exception {
        MemoryIdempotencyStore memory = new MemoryIdempotencyStore();
        IdempotencyStore old = new DelegatingStore(memory) {
            @Override
            public boolean renew(String key, String owner, Duration lease) {
                // What the SPI's default does for a store written before renew existed.
                throw new UnsupportedOperationException("this store does not implement renew");
            }
        };
        KeepAlive keepAlive = on();
        IdempotencyEngine engine = engine(old, keepAlive);
        Admission.Owned owned = (Admission.Owned) engine.begin(policy(LEASE), RecordKey.of("op", "", "old"), "fp");
        assertThat(waitFor(Duration.ofSeconds(5), () -> !keepAlive.enabled()))
                .as("the keep-alive turned itself off for a store without renew")
                .isTrue();
        assertThat(keepAlive.tracked()).isZero();
        assertThat(engine.complete(owned, new byte[] {1})).isTrue();
    }

    @Test
    void claimsInTheCallersTransactionAreNotRenewed() {
        MemoryIdempotencyStore memory = new MemoryIdempotencyStore();
        IdempotencyStore joined = new dev.idempotency.spi.JoiningStore(memory);
        KeepAlive keepAlive = on();
        IdempotencyEngine engine = engine(joined, keepAlive);
        OperationPolicy separate = policy(LEASE);
        OperationPolicy policy = new OperationPolicy(
                separate.name(),
                separate.ttl(),
                separate.lease(),
                separate.onInProgress(),
                separate.exceptions(),
                separate.required(),
                dev.idempotency.Participation.JOINED);
        engine.begin(policy, RecordKey.of("op", "", "joined"), "fp");
        assertThat(keepAlive.tracked()).isZero();
    }

    @Test
    void aRenewalThatFindsTheClaimGoneStopsRenewingIt() throws Exception {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore();
        KeepAlive keepAlive = on();
        IdempotencyEngine engine = engine(store, keepAlive);
        Admission.Owned owned = (Admission.Owned) engine.begin(policy(LEASE), RecordKey.of("op", "", "gone"), "fp");
        // An operator releases the stuck claim with its owner token.
        assertThat(store.release(owned.key().storeKey(), owned.owner())).isTrue();
        assertThat(waitFor(Duration.ofSeconds(5), () -> keepAlive.tracked() == 0))
                .as("renewal stopped once the claim was gone; still tracked: %d", keepAlive.tracked())
                .isTrue();
    }

    /**
     * A renewal that hangs (a row lock, a hung connection) delays no other claim's: while the slow
     * claim's renewal blocks for three of the quick claim's leases, the quick one is renewed every third
     * of its lease and a duplicate of it is refused throughout. The slow claim has one renewal in flight.
     */
    @Test
    void aRenewalThatHangsDelaysNoOtherClaimsRenewal() throws Exception {
        MemoryIdempotencyStore memory = new MemoryIdempotencyStore();
        OperationPolicy policy = policy(LEASE);
        RecordKey slowKey = RecordKey.of("op", "", "hangs-" + System.nanoTime());
        RecordKey quickKey = RecordKey.of("op", "", "quick-" + System.nanoTime());
        CountDownLatch unblock = new CountDownLatch(1);
        AtomicInteger slowInFlight = new AtomicInteger();
        AtomicInteger slowMostInFlight = new AtomicInteger();
        AtomicInteger slowRenewals = new AtomicInteger();
        List<Long> quickRenewals = java.util.Collections.synchronizedList(new ArrayList<>());
        IdempotencyStore store = new DelegatingStore(memory) {
            @Override
            public boolean renew(String key, String owner, Duration lease) {
                if (key.equals(slowKey.storeKey())) {
                    slowRenewals.incrementAndGet();
                    slowMostInFlight.accumulateAndGet(slowInFlight.incrementAndGet(), Math::max);
                    try {
                        unblock.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        slowInFlight.decrementAndGet();
                    }
                } else if (key.equals(quickKey.storeKey())) {
                    quickRenewals.add(System.nanoTime());
                }
                return super.renew(key, owner, lease);
            }
        };
        List<String> warnings = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(KeepAlive.class.getName());
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        log.addHandler(capture);
        KeepAlive keepAlive = on();
        IdempotencyEngine engine = engine(store, keepAlive);
        Admission.Owned slow = (Admission.Owned) engine.begin(policy, slowKey, "fp");
        long began = System.nanoTime();
        Admission.Owned quick = (Admission.Owned) engine.begin(policy, quickKey, "fp");
        long blockEnd = began + LEASE.toNanos() * 3;
        List<Long> duplicatesRun = new ArrayList<>();
        int duplicatesRefused = 0;
        try {
            while (System.nanoTime() < blockEnd) {
                try {
                    Admission a = engine.begin(policy, quickKey, "fp");
                    duplicatesRun.add((System.nanoTime() - began) / 1_000_000);
                    if (a instanceof Admission.Owned owned) {
                        engine.release(owned);
                    }
                } catch (IdempotencyInProgressException refused) {
                    duplicatesRefused++;
                }
                Thread.sleep(50);
            }
        } finally {
            unblock.countDown();
            log.removeHandler(capture);
        }
        long ended = System.nanoTime();
        engine.complete(quick, new byte[] {1});
        engine.complete(slow, new byte[] {1});

        List<Long> times = new ArrayList<>();
        times.add(began);
        synchronized (quickRenewals) {
            quickRenewals.stream().filter(t -> t - ended < 0).forEach(times::add);
        }
        times.add(blockEnd);
        long longestGap = 0;
        List<Long> at = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            longestGap = Math.max(longestGap, times.get(i) - times.get(i - 1));
            if (i < times.size() - 1) {
                at.add((times.get(i) - began) / 1_000_000);
            }
        }
        assertThat(longestGap / 1_000_000)
                .as(
                        "longest time (ms) without a renewal of the quick claim (lease %d ms) in the %d ms the other's"
                                + " renewal hung; renewed at %s ms",
                        LEASE.toMillis(), LEASE.toMillis() * 3, at)
                .isLessThan(LEASE.toMillis());
        assertThat(duplicatesRun)
                .as("times (ms) a duplicate of the quick claim ran; %d were refused", duplicatesRefused)
                .isEmpty();
        assertThat(slowMostInFlight.get())
                .as("renewals of the slow claim in flight at once (%d in all)", slowRenewals.get())
                .isEqualTo(1);
        // The slow claim's lease ended while its renewal hung: an operator must look at the store.
        assertThat(warnings)
                .as("warnings of the keep-alive")
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains(slowKey.toString(), "has not returned", "Check the store")
                .doesNotContain(quickKey.toString());
    }

    /**
     * However many renewals hang, at most {@link KeepAlive#RENEWERS} threads run them, and stopping the
     * keep-alive ends those threads (the hung renewals are interrupted) and renews nothing more.
     */
    @Test
    void renewalsRunOnBoundedThreadsThatEndWithTheKeepAlive() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        IdempotencyStore store = new DelegatingStore(new MemoryIdempotencyStore()) {
            @Override
            public boolean renew(String key, String owner, Duration lease) {
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    never.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                    Thread.currentThread().interrupt();
                } finally {
                    inFlight.decrementAndGet();
                }
                return super.renew(key, owner, lease);
            }
        };
        List<Thread> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        KeepAlive keepAlive = KeepAlive.on(
                scheduler,
                r -> {
                    Thread t = new Thread(r, "test-renewer");
                    t.setDaemon(true);
                    threads.add(t);
                    return t;
                },
                KeepAlive.DEFAULT_MAX_DURATION);
        IdempotencyEngine engine = engine(store, keepAlive);
        int claims = KeepAlive.RENEWERS * 3;
        for (int i = 0; i < claims; i++) {
            engine.begin(policy(LEASE), RecordKey.of("op", "", "hung-" + i + "-" + System.nanoTime()), "fp");
        }
        try {
            assertThat(waitFor(Duration.ofSeconds(5), () -> inFlight.get() == KeepAlive.RENEWERS))
                    .as("renewals in flight: %d", inFlight.get())
                    .isTrue();
            Thread.sleep(LEASE.toMillis()); // more renewals are due meanwhile: they wait for a thread
            assertThat(mostInFlight.get()).as("renewals in flight at once").isEqualTo(KeepAlive.RENEWERS);
            assertThat(threads).as("renewal threads").hasSize(KeepAlive.RENEWERS);
        } finally {
            keepAlive.stop();
        }
        assertThat(waitFor(Duration.ofSeconds(5), () -> threads.stream().noneMatch(Thread::isAlive)))
                .as(
                        "renewal threads ended after stop; alive: %d",
                        threads.stream().filter(Thread::isAlive).count())
                .isTrue();
        assertThat(interrupted.get()).as("hung renewals interrupted").isEqualTo(KeepAlive.RENEWERS);
        assertThat(keepAlive.tracked()).isZero();
        assertThat(keepAlive.enabled()).as("enabled after stop").isFalse();
    }

    private static boolean waitFor(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }
}
