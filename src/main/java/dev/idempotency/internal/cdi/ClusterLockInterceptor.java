package dev.idempotency.internal.cdi;

import dev.idempotency.lock.ClusterLock;
import dev.idempotency.lock.ClusterLocks;
import dev.idempotency.lock.LockSettings;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs {@link ClusterLock} methods on one node per window. Intercepts business methods and EJB timer
 * callbacks alike: {@code @Schedule} methods are invoked around {@code @AroundTimeout}, never around
 * {@code @AroundInvoke}.
 *
 * <p>Priority {@code PLATFORM_BEFORE + 90}: outside the idempotency interceptor (100) and
 * {@code @Transactional} (200), so a node that skips the run opens no transaction, and the lock is
 * released only after the job's transaction ended.
 */
@ClusterLock(name = "")
@Interceptor
@Priority(ClusterLockInterceptor.PRIORITY)
// Serializable: GlassFish's EJB container replaces a non-Serializable interceptor class of an EJB by
// a generated Serializable subclass, which CDI cannot create (no no-argument constructor: WELD-001530).
public class ClusterLockInterceptor implements Serializable {

    /** The interceptor's priority. */
    public static final int PRIORITY = 90;

    private final ToolkitProducer toolkit;
    private final ConcurrentHashMap<Method, Plan> plans = new ConcurrentHashMap<>();

    /** @param toolkit the application's toolkit services */
    @Inject
    public ClusterLockInterceptor(ToolkitProducer toolkit) {
        this.toolkit = toolkit;
    }

    /** A business method call. */
    @AroundInvoke
    public Object invoke(InvocationContext ic) throws Exception {
        return locked(ic);
    }

    /** An EJB timer callback. */
    @AroundTimeout
    public Object timeout(InvocationContext ic) throws Exception {
        return locked(ic);
    }

    private Object locked(InvocationContext ic) throws Exception {
        Plan plan = plans.computeIfAbsent(ic.getMethod(), m -> Plan.of(m, targetClass(ic)));
        ClusterLocks locks = toolkit.locks();
        Optional<ClusterLocks.Lock> lock = locks.tryLock(plan.name, plan.atMostFor, plan.atLeastFor);
        if (lock.isEmpty()) {
            return null;
        }
        try {
            return ic.proceed();
        } finally {
            lock.get().unlock();
        }
    }

    private static Class<?> targetClass(InvocationContext ic) {
        Object t = ic.getTarget();
        return t == null ? ic.getMethod().getDeclaringClass() : t.getClass();
    }

    /** A method's resolved lock. */
    record Plan(String name, Duration atMostFor, Duration atLeastFor) {

        static Plan of(Method method, Class<?> targetClass) {
            ClusterLock a = annotation(method, targetClass);
            String where = "@ClusterLock on " + method.getDeclaringClass().getName() + "#" + method.getName();
            Duration most = LockSettings.parse(where + ": atMostFor", a.atMostFor(), false);
            Duration least = LockSettings.parse(where + ": atLeastFor", a.atLeastFor(), true);
            LockSettings.check(a.name(), most, least, where);
            return new Plan(a.name().trim(), most, least);
        }

        static ClusterLock annotation(Method method, Class<?> targetClass) {
            ClusterLock a = method.getAnnotation(ClusterLock.class);
            if (a == null && targetClass != null) {
                a = targetClass.getAnnotation(ClusterLock.class);
            }
            if (a == null) {
                a = method.getDeclaringClass().getAnnotation(ClusterLock.class);
            }
            return a;
        }
    }
}
