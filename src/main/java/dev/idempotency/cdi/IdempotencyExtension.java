package dev.idempotency.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.GuardedMethod;
import dev.idempotency.core.IdempotencyEngine;
import dev.idempotency.core.OperationPolicy;
import dev.idempotency.core.PolicyResolver;
import dev.idempotency.spi.ConfigLookup;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
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
    /** The subset of {@link #guarded} that the interceptor serves (all but JAX-RS resource methods). */
    private final Set<Guarded> intercepted = new LinkedHashSet<>();

    /** A guarded method as a bean class has it (the class-level {@code @Idempotent} is the bean's). */
    record Guarded(Class<?> beanClass, Method method) {}

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
        Idempotent classLevel = cls.getAnnotation(Idempotent.class);
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            Method method = m.getJavaMember();
            if (!guardable(method)) {
                continue;
            }
            boolean annotated = method.isAnnotationPresent(Idempotent.class);
            if (!annotated && (classLevel == null || !Modifier.isPublic(method.getModifiers()))) {
                continue;
            }
            guarded.add(new Guarded(cls, method));
            if (!isResourceMethod(method)) {
                intercepted.add(new Guarded(cls, method));
            }
        }
    }

    private static boolean guardable(Method method) {
        int mod = method.getModifiers();
        return !Modifier.isStatic(mod)
                && !Modifier.isPrivate(mod)
                && !method.isSynthetic()
                && method.getDeclaringClass() != Object.class;
    }

    /**
     * Whether JAX-RS serves this method as a resource method: it, or the method it overrides or
     * implements (JAX-RS annotation inheritance), carries an annotation marked {@code @HttpMethod}
     * ({@code @GET}, {@code @POST}, ...). Read by name, so that a deployment without JAX-RS links.
     *
     * <p>The JAX-RS filter guards such a method over HTTP, with HTTP semantics; the interceptor lets
     * it through (a second guard would take the filter's own claim for a call in progress). The rule
     * is the method's, not a binding the extension removes: a JAX-RS runtime may create resource
     * instances from an annotated type of its own, which this extension never sees.
     */
    static boolean isResourceMethod(Method method) {
        for (Method m : sameSignature(method)) {
            for (java.lang.annotation.Annotation a : m.getAnnotations()) {
                for (java.lang.annotation.Annotation meta : a.annotationType().getAnnotations()) {
                    if (meta.annotationType().getName().equals("jakarta.ws.rs.HttpMethod")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The method and the methods of its class's supertypes that it overrides or implements. */
    private static List<Method> sameSignature(Method method) {
        List<Method> found = new ArrayList<>();
        java.util.ArrayDeque<Class<?>> types = new java.util.ArrayDeque<>();
        types.add(method.getDeclaringClass());
        Set<Class<?>> seen = new HashSet<>();
        while (!types.isEmpty()) {
            Class<?> c = types.poll();
            if (c == null || c == Object.class || !seen.add(c)) {
                continue;
            }
            try {
                found.add(c.getDeclaredMethod(method.getName(), method.getParameterTypes()));
            } catch (NoSuchMethodException e) {
                // not declared here
            }
            types.add(c.getSuperclass());
            types.addAll(java.util.Arrays.asList(c.getInterfaces()));
        }
        return found;
    }

    /**
     * The guarded methods the CDI interceptor serves, per bean class: the runtime plans each one
     * when it starts, against the configured store. JAX-RS resource methods are not among them.
     */
    Set<Guarded> intercepted() {
        return Collections.unmodifiableSet(intercepted);
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        ConfigLookup settings = MicroProfileSettings.current();
        GlobalSettings global = new GlobalSettings(settings);
        for (Runnable check : List.<Runnable>of(
                () -> StoreSelector.bean(bm, global.store()),
                global::purgeInterval,
                global::purgeBatchSize,
                global::retryAfter,
                global::waitLimits,
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
                if (annotation == null) {
                    continue;
                }
                OperationPolicy policy = policies.resolve(g.method(), annotation);
                // Only the methods the interceptor serves are planned: a resource method's outcome is its HTTP
                // response, stored by the JAX-RS filter, so its return type (a Response) is never replayed.
                if (intercepted.contains(g)) {
                    GuardedMethod.plan(g.method(), policy, probe);
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
