package dev.idempotency.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.GuardedMethod;
import dev.idempotency.core.IdempotencyEngine;
import dev.idempotency.core.PolicyResolver;
import dev.idempotency.core.Settings;
import dev.idempotency.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.stores.memory.MemoryStoreLimits;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds every {@link Idempotent} method at deployment and validates it (durations, key readability,
 * return type, store name), so that invalid use fails the deployment with a message naming the method
 * and the fix, not the first call. Also applies {@code idempotency.interceptor.priority}.
 */
public class IdempotencyExtension implements Extension {

    /** Every guarded (bean class, method): a method inherited by two beans is validated for each. */
    private final Set<Guarded> guarded = new LinkedHashSet<>();

    private record Guarded(Class<?> beanClass, Method method) {}

    void priority(@Observes ProcessAnnotatedType<IdempotentInterceptor> pat) {
        int priority = new GlobalSettings(MicroProfileSettings.current()).interceptorPriority();
        if (priority != GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY) {
            setPriority(pat, priority);
        }
    }

    void workPriority(@Observes ProcessAnnotatedType<IdempotentWorkInterceptor> pat) {
        int priority;
        try {
            priority = new GlobalSettings(MicroProfileSettings.current()).workInterceptorPriority();
        } catch (IdempotencyConfigurationException e) {
            return; // reported by validate(), with every other configuration problem
        }
        if (priority != GlobalSettings.DEFAULT_WORK_INTERCEPTOR_PRIORITY) {
            setPriority(pat, priority);
        }
    }

    private static void setPriority(ProcessAnnotatedType<?> pat, int priority) {
        pat.configureAnnotatedType()
                .remove(a -> a.annotationType() == Priority.class)
                .add(new PriorityLiteral(priority));
    }

    <T> void collect(@Observes @WithAnnotations(Idempotent.class) ProcessAnnotatedType<T> pat) {
        AnnotatedType<T> type = pat.getAnnotatedType();
        Class<T> cls = type.getJavaClass();
        if (cls == IdempotentInterceptor.class || cls == IdempotentWorkInterceptor.class) {
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
                guarded.add(new Guarded(cls, method));
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        Settings settings = MicroProfileSettings.current();
        GlobalSettings global = new GlobalSettings(settings);
        for (Runnable check : List.<Runnable>of(
                () -> StoreSelector.bean(bm, global.store()),
                global::purgeInterval,
                global::purgeBatchSize,
                global::retryAfter,
                global::workInterceptorPriority,
                () -> MemoryStoreLimits.from(settings))) {
            try {
                check.run();
            } catch (IdempotencyConfigurationException e) {
                adv.addDeploymentProblem(e);
            }
        }
        PolicyResolver policies = new PolicyResolver(settings);
        // Plans are built against a throwaway engine only to surface errors now; the runtime builds its own.
        IdempotencyEngine probe = new IdempotencyEngine(new MemoryIdempotencyStore());
        for (Guarded g : guarded) {
            try {
                Idempotent annotation = effectiveAnnotation(g.method(), g.beanClass());
                if (annotation != null) {
                    GuardedMethod.plan(g.method(), policies.resolve(g.method(), annotation), probe);
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
