package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.ids.IdSettings;
import dev.idempotency.lock.ClusterLock;
import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageSettings;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.tokens.TokenSettings;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The toolkit's methods of a deployment and their checks, shared by the portable {@link ToolkitExtension}
 * (CDI Full) and the {@link IdempotencyBuildExtension} (CDI Lite, Quarkus): every {@link ClusterLock} and
 * {@link IdempotentConsumer} method, and the {@code idempotency.tokens.*}, {@code idempotency.messages.*}
 * and {@code idempotency.ids.*} keys, so that a mistake fails the deployment with a message naming the
 * key or the method and the fix, not the first message or timer.
 */
final class ToolkitScan {

    private final Map<Method, Class<?>> locked = new LinkedHashMap<>();
    private final Map<Method, Class<?>> consumers = new LinkedHashMap<>();

    /** Notes a method of {@code cls} (declared there or inherited) if it is a lock or a consumer. */
    void collect(Method method, Class<?> cls) {
        if (cls == ClusterLockInterceptor.class || cls == IdempotentConsumerInterceptor.class) {
            return;
        }
        int mod = method.getModifiers();
        if (Modifier.isStatic(mod)
                || Modifier.isPrivate(mod)
                || method.isSynthetic()
                || method.getDeclaringClass() == Object.class) {
            return;
        }
        if (method.isAnnotationPresent(ClusterLock.class)
                || (cls.isAnnotationPresent(ClusterLock.class) && Modifier.isPublic(mod))) {
            locked.put(method, cls);
        }
        if (method.isAnnotationPresent(IdempotentConsumer.class)
                || (cls.isAnnotationPresent(IdempotentConsumer.class) && Modifier.isPublic(mod))) {
            consumers.put(method, cls);
        }
    }

    /** Notes the locks and consumers among the methods {@code cls} declares and inherits from its superclasses. */
    void collect(Class<?> cls) {
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                collect(m, cls);
            }
        }
    }

    /** The locked methods, as {@code Class#method}. */
    List<String> locked() {
        return described(locked);
    }

    /** The consumer methods, as {@code Class#method}. */
    List<String> consumers() {
        return described(consumers);
    }

    /** Every problem of the toolkit's keys and methods, in {@code settings}. */
    List<IdempotencyConfigurationException> validate(ConfigLookup settings) {
        List<IdempotencyConfigurationException> problems = new ArrayList<>();
        MessageSettings messages = null;
        try {
            TokenSettings.from(settings);
            IdSettings.from(settings);
            messages = MessageSettings.from(settings);
        } catch (IdempotencyConfigurationException e) {
            problems.add(e);
        }
        for (Map.Entry<Method, Class<?>> e : locked.entrySet()) {
            try {
                ClusterLockInterceptor.Plan.of(e.getKey(), e.getValue());
                if (e.getKey().getReturnType() != void.class) {
                    throw new IdempotencyConfigurationException("@ClusterLock method "
                            + e.getKey().getDeclaringClass().getName() + "#"
                            + e.getKey().getName() + " returns "
                            + e.getKey().getReturnType().getSimpleName()
                            + "; a skipped run has no result, so cluster-locked jobs must return void.");
                }
            } catch (IdempotencyConfigurationException ex) {
                problems.add(ex);
            }
        }
        if (messages != null) {
            for (Map.Entry<Method, Class<?>> e : consumers.entrySet()) {
                try {
                    IdempotentConsumerInterceptor.Plan.of(e.getKey(), e.getValue(), messages);
                } catch (IdempotencyConfigurationException ex) {
                    problems.add(ex);
                }
            }
        }
        return problems;
    }

    private static List<String> described(Map<Method, Class<?>> methods) {
        return methods.keySet().stream()
                .map(m -> m.getDeclaringClass().getName() + "#" + m.getName())
                .distinct()
                .toList();
    }
}
