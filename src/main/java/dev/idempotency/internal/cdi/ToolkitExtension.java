package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.ids.IdSettings;
import dev.idempotency.lock.ClusterLock;
import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageSettings;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.tokens.TokenSettings;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates the toolkit at deployment: the {@code idempotency.tokens.*}, {@code
 * idempotency.messages.*} and {@code idempotency.ids.*} keys, and every {@link ClusterLock} and
 * {@link IdempotentConsumer} method, so that a mistake fails the deployment with a message naming the
 * key or the method and the fix, not the first message or timer.
 */
public class ToolkitExtension implements Extension {

    private final Map<Method, Class<?>> locked = new LinkedHashMap<>();
    private final Map<Method, Class<?>> consumers = new LinkedHashMap<>();

    <T> void collect(
            @Observes @WithAnnotations({ClusterLock.class, IdempotentConsumer.class}) ProcessAnnotatedType<T> pat) {
        AnnotatedType<T> type = pat.getAnnotatedType();
        Class<T> cls = type.getJavaClass();
        if (cls == ClusterLockInterceptor.class || cls == IdempotentConsumerInterceptor.class) {
            return;
        }
        boolean classLock = cls.isAnnotationPresent(ClusterLock.class);
        boolean classConsumer = cls.isAnnotationPresent(IdempotentConsumer.class);
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            Method method = m.getJavaMember();
            int mod = method.getModifiers();
            if (Modifier.isStatic(mod)
                    || Modifier.isPrivate(mod)
                    || method.isSynthetic()
                    || method.getDeclaringClass() == Object.class) {
                continue;
            }
            if (method.isAnnotationPresent(ClusterLock.class) || (classLock && Modifier.isPublic(mod))) {
                locked.put(method, cls);
            }
            if (method.isAnnotationPresent(IdempotentConsumer.class) || (classConsumer && Modifier.isPublic(mod))) {
                consumers.put(method, cls);
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        for (IdempotencyConfigurationException unguarded : java.util.Arrays.asList(
                InterceptorCheck.missing(
                        bm,
                        ClusterLockInterceptor.class.getAnnotation(ClusterLock.class),
                        List.of(ClusterLockInterceptor.class),
                        "@ClusterLock",
                        described(locked)),
                InterceptorCheck.missing(
                        bm,
                        IdempotentConsumerInterceptor.class.getAnnotation(IdempotentConsumer.class),
                        List.of(IdempotentConsumerInterceptor.class),
                        "@IdempotentConsumer",
                        described(consumers)))) {
            if (unguarded != null) {
                adv.addDeploymentProblem(unguarded);
            }
        }
        ConfigLookup settings = MicroProfileConfigLookup.current();
        MessageSettings messages = null;
        try {
            TokenSettings.from(settings);
            IdSettings.from(settings);
            messages = MessageSettings.from(settings);
        } catch (IdempotencyConfigurationException e) {
            adv.addDeploymentProblem(e);
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
                adv.addDeploymentProblem(ex);
            }
        }
        if (messages != null) {
            for (Map.Entry<Method, Class<?>> e : consumers.entrySet()) {
                try {
                    IdempotentConsumerInterceptor.Plan.of(e.getKey(), e.getValue(), messages);
                } catch (IdempotencyConfigurationException ex) {
                    adv.addDeploymentProblem(ex);
                }
            }
        }
    }

    private static List<String> described(Map<Method, Class<?>> methods) {
        return methods.keySet().stream()
                .map(m -> m.getDeclaringClass().getName() + "#" + m.getName())
                .distinct()
                .toList();
    }
}
