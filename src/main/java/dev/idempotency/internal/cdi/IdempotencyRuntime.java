package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.EntryPointServices;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.IdempotencyObserver;
import dev.idempotency.internal.core.KeepAlive;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.internal.core.ResultFuture;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.internal.core.WorkTransactions;
import dev.idempotency.internal.jaxrs.StartupCheck;
import dev.idempotency.internal.stores.ContainerResources;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.memory.MemoryStoreSettings;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The application's idempotency runtime: the configured store, the engine, and the per-method plans,
 * each built once. Starts with the application, so that a bad store name fails the deployment, and
 * runs the purge of expired records in the background.
 */
@ApplicationScoped
public class IdempotencyRuntime implements EntryPointServices {

    private static final System.Logger LOG = System.getLogger(IdempotencyRuntime.class.getName());
    private static final String JTA_REGISTRY = "jakarta.transaction.TransactionSynchronizationRegistry";
    private static final String SERVLET_INITIALIZER = "jakarta.servlet.ServletContainerInitializer";
    private static final String JAX_RS = "jakarta.ws.rs.Path";
    private static final String CONCURRENCY_ASYNCHRONOUS = "jakarta.enterprise.concurrent.Asynchronous";

    /**
     * The plan of every method the interceptor guards, per (bean class, method), built when the runtime
     * starts, against the configured store: the class-level {@code @Idempotent} (name prefix, lease,
     * keepOn) is the bean class's, so two beans inheriting one method get a plan each. Read-only after
     * {@link #init}.
     */
    private final Map<GuardedScan.Guarded, GuardedMethod> registry = new HashMap<>();

    /**
     * The plans as calls find them: per class of the call's target (a container subclass of the bean
     * class), then per method. Filled from {@link #registry} on a class's first call.
     */
    private final ConcurrentHashMap<Class<?>, ConcurrentHashMap<Method, Optional<GuardedMethod>>> plans =
            new ConcurrentHashMap<>();

    /** The portable extension that found the guarded methods (absent where only CDI Lite runs). */
    @Inject
    Instance<IdempotencyExtension> extension;

    /** What the build-compatible extension found (present only where it ran instead, on CDI Lite). */
    @Inject
    Instance<BuildCompatibleScan> buildScan;

    /** The guarded methods, as either extension found them. */
    private GuardedScan scan;

    @Inject
    BeanManager beanManager;

    /** The operations tooling (metrics) that observes the engine, when the application has one. */
    @Inject
    Instance<IdempotencyObserver> observers;

    private ConfigLookup settings;
    private PolicyResolver policies;
    private IdempotencyEngine engine;
    private Settlement settlement;
    private ResultFuture results;
    private ScheduledExecutorService ownScheduler;
    private ScheduledFuture<?> purge;
    private KeepAlive keepAlive;
    private int guardPriority;
    /** Whether {@link #start} left the startup checks to the CDI {@code Startup} event ({@link #started}). */
    private volatile boolean checkAtStartup;

    @PostConstruct
    void init() {
        settings = MicroProfileConfigLookup.current();
        policies = new PolicyResolver(settings);
        scan = scan();
        if (extension == null || !extension.isResolvable()) {
            // The build-compatible extension checked the build's configuration; this is the running one.
            requireValid(scan);
        }
        GlobalSettings global = GlobalSettings.from(settings);
        guardPriority = global.interceptorPriority();
        ScheduledExecutorService scheduler = scheduler();
        keepAlive = global.keepAliveEnabled() ? keepAlive(scheduler, global.keepAliveMaxDuration()) : KeepAlive.OFF;
        engine = new IdempotencyEngine(
                selectStore(global.store()),
                global.retryAfter(),
                observer(),
                global.waitLimits(),
                keepAlive,
                global.application());
        // TransactionSettlement names JTA types: loaded only where the JTA API is (not on Helidon or Quarkus
        // without it), so that the runtime starts on every CDI container.
        // Where CDI lookups wait (Quarkus), the registry is found at the Startup event: looked up now, its
        // bean would be taken for missing, and outcomes stored before the callers' transactions end.
        String registryName = global.transactionRegistry();
        settlement = !ContainerResources.present(JTA_REGISTRY)
                ? Settlement.IMMEDIATE
                : ContainerResources.lookupsReady()
                        ? TransactionSettlement.lookup(registryName)
                        : new DeferredSettlement(() -> TransactionSettlement.lookup(registryName));
        // Likewise ConcurrencyResultFuture names Jakarta Concurrency's types.
        results = ContainerResources.present(CONCURRENCY_ASYNCHRONOUS)
                ? new ConcurrencyResultFuture()
                : ResultFuture.NONE;
        // A plan that cannot be built (an invalid per-operation store setting) fails the deployment here.
        for (GuardedScan.Guarded g : scan.intercepted()) {
            registry.put(g, newPlan(g.method(), g.beanClass()));
        }
        if (!registry.isEmpty()) {
            requireJsonBinding();
        }
        long millis = global.purgeInterval().toMillis();
        int batchSize = global.purgeBatchSize();
        purge = scheduler.scheduleWithFixedDelay(() -> purgeOnce(batchSize), millis, millis, TimeUnit.MILLISECONDS);
    }

    /** The operation names of the plans built at deployment, in no particular order. */
    Set<String> plannedOperations() {
        Set<String> names = new HashSet<>();
        registry.values().forEach(p -> names.add(p.policy().name()));
        return names;
    }

    /**
     * Stored results and exceptions of CDI methods are JSON-B documents: a runtime without a JSON-B
     * implementation (Helidon MP's core bundle) would run such a method and then fail to store its
     * outcome, so it does not start.
     */
    private static void requireJsonBinding() {
        try {
            jakarta.json.bind.JsonbBuilder.create().toJson(1);
        } catch (RuntimeException | LinkageError e) {
            throw new IdempotencyConfigurationException(
                    "@Idempotent CDI methods store their results as JSON, but"
                            + " this runtime has no JSON-B implementation (" + e + "). Add one to the application, e.g."
                            + " org.eclipse:yasson (on Helidon MP's core bundle, or"
                            + " org.glassfish.jersey.media:jersey-media-json-binding).",
                    e);
        }
    }

    /** The guarded methods as the extension that ran found them, else the refusal to start. */
    private GuardedScan scan() {
        if (extension != null && extension.isResolvable()) {
            return extension.get().scan();
        }
        if (buildScan != null && buildScan.isResolvable()) {
            return buildScan.get().scan();
        }
        throw noExtension();
    }

    /**
     * Fails the startup on every problem the deployment checks find in the running configuration, as
     * the portable extension fails the deployment: one message per problem.
     */
    private void requireValid(GuardedScan found) {
        java.util.List<IdempotencyConfigurationException> problems =
                found.validate(settings, name -> StoreSelector.bean(beanManager, name), () -> null);
        if (problems.size() == 1) {
            throw problems.get(0);
        }
        if (!problems.isEmpty()) {
            IdempotencyConfigurationException all = new IdempotencyConfigurationException(problems.size()
                    + " problems with the idempotency configuration: "
                    + problems.stream().map(Throwable::getMessage).collect(java.util.stream.Collectors.joining(" | ")));
            problems.forEach(all::addSuppressed);
            throw all;
        }
    }

    /**
     * The refusal to start where neither of the library's CDI extensions ran: without one, an {@code
     * @Idempotent} declared on an interface or a superclass is not bound and nothing is validated at
     * deployment. CDI Full runs the portable one, CDI Lite (Quarkus's ArC) the build-compatible one; a
     * container set up by hand may run neither.
     */
    static IdempotencyConfigurationException noExtension() {
        return new IdempotencyConfigurationException("The idempotency library's CDI extensions (the portable "
                + IdempotencyExtension.class.getName() + ", or the build-compatible "
                + IdempotencyBuildExtension.class.getName() + ") did not run in this CDI container, so @Idempotent"
                + " methods declared on an interface or a superclass would run unguarded and the configuration"
                + " would not be checked: the application is not started. In a CDI SE container, do not"
                + " disable extension discovery (or add the portable extension); on Quarkus, keep the"
                + " library's jar a dependency as it is (its META-INF/services registers the extension).");
    }

    /**
     * Creates the runtime with the application, not at the first guarded call. Without Servlet
     * (Helidon, a CDI SE container) no web module start runs {@code jaxrs.DeploymentCheck}: its checks
     * run here, so that a store that cannot start fails the startup, not every call.
     */
    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (!ContainerResources.present(SERVLET_INITIALIZER) && ContainerResources.present(JAX_RS)) {
            if (ContainerResources.lookupsReady()) {
                check();
            } else {
                // Quarkus, at static init: the store's data source cannot be found, let alone used, yet.
                checkAtStartup = true;
                LOG.log(Level.DEBUG, "CDI lookups not available yet: the store is checked at the Startup event");
            }
        }
        LOG.log(
                Level.DEBUG,
                "idempotency runtime started on store {0}",
                engine.store().getClass().getName());
    }

    /**
     * Looks up what {@link #init} and {@link #start} could not yet (the JTA registry, the store's data
     * source) and runs the checks: before the application serves its first call.
     */
    void started(@Observes Startup ignored) {
        if (settlement instanceof DeferredSettlement deferred) {
            deferred.get(); // a registry that cannot be looked up fails the startup here
        }
        if (checkAtStartup) {
            checkAtStartup = false;
            check();
        }
    }

    private void check() {
        StartupCheck.run(scan.guardedClasses(), org.eclipse.microprofile.config.ConfigProvider.getConfig(), this);
    }

    @PreDestroy
    void stop() {
        if (purge != null) {
            purge.cancel(false);
        }
        if (keepAlive != null) {
            keepAlive.stop();
        }
        if (ownScheduler != null) {
            ownScheduler.shutdownNow();
        }
    }

    @Override
    public IdempotencyEngine engine() {
        return engine;
    }

    @Override
    public ConfigLookup settings() {
        return settings;
    }

    @Override
    public PolicyResolver policies() {
        return policies;
    }

    /**
     * The plan of a guarded method for a call's target class: the plan built at deployment for the
     * nearest bean class above it, else (a class the extension did not see) one built now; empty for a
     * JAX-RS resource method, which the JAX-RS filter guards ({@link IdempotencyExtension#isResourceMethod}).
     */
    Optional<GuardedMethod> plan(Method method, Class<?> targetClass) {
        ConcurrentHashMap<Method, Optional<GuardedMethod>> ofClass = plans.get(targetClass);
        if (ofClass == null) {
            ofClass = plans.computeIfAbsent(targetClass, c -> new ConcurrentHashMap<>());
        }
        Optional<GuardedMethod> plan = ofClass.get(method);
        if (plan == null) {
            plan = ofClass.computeIfAbsent(
                    method,
                    m -> IdempotencyExtension.isResourceMethod(m)
                            ? Optional.empty()
                            : Optional.of(registered(m, targetClass)));
        }
        return plan;
    }

    private GuardedMethod registered(Method method, Class<?> targetClass) {
        for (Class<?> c = targetClass; c != null && c != Object.class; c = c.getSuperclass()) {
            GuardedMethod plan = registry.get(new GuardedScan.Guarded(c, method));
            if (plan != null) {
                return plan;
            }
        }
        return newPlan(method, targetClass);
    }

    /** Reports the transaction the current thread runs in to a guarded call's work. */
    void watch(WorkTransactions work) {
        settlement.watch(work);
    }

    /** Settles with the transaction around the caller: for entry points that cannot watch the body. */
    Settlement settlement() {
        return settlement;
    }

    private GuardedMethod newPlan(Method method, Class<?> targetClass) {
        Idempotent annotation = IdempotencyExtension.effectiveAnnotation(method, targetClass);
        if (annotation == null) {
            throw new IdempotencyConfigurationException("No @Idempotent found for " + PolicyResolver.describe(method));
        }
        OperationPolicy policy = policies.resolve(method, annotation);
        if (policy.joined()) {
            JoinedModeCheck.check(method, targetClass, policy.name(), guardPriority);
        }
        GuardedMethod plan = GuardedMethod.plan(method, policy, engine, settlement, results);
        engine.planned(policy, "CDI");
        return plan;
    }

    private IdempotencyObserver observer() {
        return observers != null && observers.isResolvable() ? observers.get() : IdempotencyObserver.NONE;
    }

    @SuppressWarnings("unchecked")
    private IdempotencyStore selectStore(String name) {
        Bean<?> bean = StoreSelector.bean(beanManager, name);
        if (bean == null) {
            return new MemoryIdempotencyStore(Clock.systemUTC(), MemoryStoreSettings.from(settings));
        }
        Bean<IdempotencyStore> b = (Bean<IdempotencyStore>) bean;
        BeanManager seeing = StoreSelector.managerSeeing(beanManager, name);
        return (IdempotencyStore) seeing.getReference(b, IdempotencyStore.class, seeing.createCreationalContext(b));
    }

    /**
     * The server's managed scheduler, else one of our own with two daemon threads, so that a slow purge
     * never delays the keep-alive's look at the running calls (the renewals themselves run on threads of
     * the keep-alive's own).
     */
    private ScheduledExecutorService scheduler() {
        ScheduledExecutorService scheduler = managedScheduler();
        if (scheduler == null) {
            java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
            ownScheduler = java.util.concurrent.Executors.newScheduledThreadPool(2, r -> {
                Thread t = new Thread(r, "idempotency-scheduler-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            scheduler = ownScheduler;
        }
        return scheduler;
    }

    /**
     * The keep-alive, renewing on threads of the server's managed thread factory where there is one: a
     * store's renewal may need the application's context (the JPA store's JTA registry, looked up in
     * JNDI), which a thread of our own lacks.
     */
    private static KeepAlive keepAlive(ScheduledExecutorService scheduler, java.time.Duration maxDuration) {
        ThreadFactory threads = managedThreadFactory();
        return threads != null ? KeepAlive.on(scheduler, threads, maxDuration) : KeepAlive.on(scheduler, maxDuration);
    }

    private static ThreadFactory managedThreadFactory() {
        try {
            return (ThreadFactory) new InitialContext().lookup("java:comp/DefaultManagedThreadFactory");
        } catch (NamingException | RuntimeException | NoClassDefFoundError e) {
            return null;
        }
    }

    /** Deletes expired records in batches until a batch comes back short. */
    void purgeOnce(int batchSize) {
        try {
            int total = 0;
            int n;
            do {
                n = engine.store().purgeExpired(batchSize);
                total += n;
            } while (n == batchSize);
            if (total > 0) {
                LOG.log(Level.DEBUG, "purged {0} expired idempotency records", total);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "purging expired idempotency records failed; will try again next interval", e);
        }
    }

    private static ScheduledExecutorService managedScheduler() {
        try {
            return (ScheduledExecutorService)
                    new InitialContext().lookup("java:comp/DefaultManagedScheduledExecutorService");
        } catch (NamingException | RuntimeException | NoClassDefFoundError e) {
            return null;
        }
    }
}
