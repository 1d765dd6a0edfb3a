package dev.idempotency.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.GuardedMethod;
import dev.idempotency.core.IdempotencyEngine;
import dev.idempotency.core.PolicyResolver;
import dev.idempotency.core.Settings;
import dev.idempotency.stores.memory.MemoryIdempotencyStore;
import jakarta.annotation.Priority;
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
import java.util.Map;

/**
 * Finds every {@link Idempotent} method at deployment and validates it (durations, key readability,
 * return type, store name), so that invalid use fails the deployment with a message naming the method
 * and the fix, not the first call. Also applies {@code idempotency.interceptor.priority}.
 */
public class IdempotencyExtension implements Extension {

    private final Map<Method, Class<?>> guarded = new LinkedHashMap<>();

    void priority(@Observes ProcessAnnotatedType<IdempotentInterceptor> pat) {
        int priority = new GlobalSettings(MicroProfileSettings.current()).interceptorPriority();
        if (priority != GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY) {
            pat.configureAnnotatedType()
                    .remove(a -> a.annotationType() == Priority.class)
                    .add(new PriorityLiteral(priority));
        }
    }

    <T> void collect(@Observes @WithAnnotations(Idempotent.class) ProcessAnnotatedType<T> pat) {
        AnnotatedType<T> type = pat.getAnnotatedType();
        Class<T> cls = type.getJavaClass();
        if (cls == IdempotentInterceptor.class) {
            return;
        }
        boolean classLevel = cls.isAnnotationPresent(Idempotent.class);
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            Method method = m.getJavaMember();
            int mod = method.getModifiers();
            if (Modifier.isStatic(mod) || Modifier.isPrivate(mod) || method.isSynthetic()) {
                continue;
            }
            if (method.getDeclaringClass() == Object.class) {
                continue;
            }
            if (method.isAnnotationPresent(Idempotent.class) || (classLevel && Modifier.isPublic(mod))) {
                guarded.put(method, cls);
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        Settings settings = MicroProfileSettings.current();
        try {
            StoreSelector.bean(bm, new GlobalSettings(settings).store());
            new GlobalSettings(settings).purgeInterval();
            new GlobalSettings(settings).purgeBatchSize();
        } catch (IdempotencyConfigurationException e) {
            adv.addDeploymentProblem(e);
        }
        PolicyResolver policies = new PolicyResolver(settings);
        // Plans are built against a throwaway engine only to surface errors now; the runtime builds its own.
        IdempotencyEngine probe = new IdempotencyEngine(new MemoryIdempotencyStore());
        for (Map.Entry<Method, Class<?>> e : guarded.entrySet()) {
            try {
                Idempotent annotation = effectiveAnnotation(e.getKey(), e.getValue());
                if (annotation != null) {
                    GuardedMethod.plan(e.getKey(), policies.resolve(e.getKey(), annotation), probe);
                }
            } catch (IdempotencyConfigurationException ex) {
                adv.addDeploymentProblem(ex);
            }
        }
    }

    /**
     * The {@code @Idempotent} that applies to a method: on the method, else on the class of the
     * target (inherited), else on the declaring class.
     */
    static Idempotent effectiveAnnotation(Method method, Class<?> targetClass) {
        Idempotent a = method.getAnnotation(Idempotent.class);
        if (a == null && targetClass != null) {
            a = targetClass.getAnnotation(Idempotent.class);
        }
        if (a == null) {
            a = method.getDeclaringClass().getAnnotation(Idempotent.class);
        }
        return a;
    }

    @SuppressWarnings("all")
    private static final class PriorityLiteral extends jakarta.enterprise.util.AnnotationLiteral<Priority>
            implements Priority {
        private final int value;

        PriorityLiteral(int value) {
            this.value = value;
        }

        @Override
        public int value() {
            return value;
        }
    }
}
