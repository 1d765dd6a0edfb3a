package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.Declarations;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.internal.ops.OpsSettings;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.memory.MemoryStoreSettings;
import dev.idempotency.spi.ConfigLookup;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

    /** Declarations found ambiguous while collecting, reported when the deployment is validated. */
    private final List<IdempotencyConfigurationException> problems = new ArrayList<>();

    /** A guarded method as a bean class has it (the class-level {@code @Idempotent} is the bean's). */
    record Guarded(Class<?> beanClass, Method method) {}

    void priority(@Observes ProcessAnnotatedType<IdempotentInterceptor> pat) {
        int priority = GlobalSettings.interceptorPriority(MicroProfileConfigLookup.current());
        if (priority != GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY) {
            setPriority(pat, priority);
        }
    }

    void workPriority(@Observes ProcessAnnotatedType<IdempotentWorkInterceptor> pat) {
        int priority;
        try {
            priority = GlobalSettings.workInterceptorPriority(
                    GlobalSettings.interceptorPriority(MicroProfileConfigLookup.current()));
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

    /**
     * Finds the guarded methods of every type, and binds the interceptor to those whose {@code
     * @Idempotent} is declared where CDI does not look: on an interface method (abstract or default),
     * an overridden superclass method, or an interface. Observes every type: {@code @WithAnnotations}
     * sees a type's own members and its superclasses' but not its interfaces'.
     */
    <T> void collect(@Observes ProcessAnnotatedType<T> pat) {
        AnnotatedType<T> type = pat.getAnnotatedType();
        Class<T> cls = type.getJavaClass();
        if (cls == IdempotentInterceptor.class
                || cls == IdempotentWorkInterceptor.class
                || cls.isInterface()
                || !Declarations.mayDeclare(cls)) {
            return;
        }
        Set<Method> toBind = new HashSet<>();
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            Method method = m.getJavaMember();
            if (!guardable(method)) {
                continue;
            }
            Idempotent annotation;
            try {
                annotation = Declarations.effective(method, cls);
            } catch (IdempotencyConfigurationException e) {
                problems.add(e); // ambiguous declarations: reported at validation, with the rest
                continue;
            }
            if (annotation == null) {
                continue;
            }
            guarded.add(new Guarded(cls, method));
            if (isResourceMethod(method)) {
                continue; // the JAX-RS filter's
            }
            intercepted.add(new Guarded(cls, method));
            if (!m.isAnnotationPresent(Idempotent.class) && !type.isAnnotationPresent(Idempotent.class)) {
                toBind.add(method);
            }
        }
        if (!toBind.isEmpty()) {
            pat.configureAnnotatedType()
                    .filterMethods(m -> toBind.contains(m.getJavaMember()))
                    .forEach(m -> m.add(IdempotentLiteral.INSTANCE));
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
        for (Method m : Declarations.hierarchy(method)) {
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

    /** The bean classes with guarded methods, JAX-RS resource classes among them. */
    Set<Class<?>> guardedClasses() {
        Set<Class<?>> classes = new LinkedHashSet<>();
        guarded.forEach(g -> classes.add(g.beanClass()));
        return classes;
    }

    /**
     * The guarded methods the CDI interceptor serves, per bean class: the runtime plans each one
     * when it starts, against the configured store. JAX-RS resource methods are not among them.
     */
    Set<Guarded> intercepted() {
        return Collections.unmodifiableSet(intercepted);
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        ConfigLookup settings = MicroProfileConfigLookup.current();
        // Every global key is read here, also those read only later (ttl and lease only by operations that
        // set none, keep-alive when the runtime starts, the ops switches when their beans start).
        GlobalSettings global;
        try {
            global = GlobalSettings.from(settings);
            global.workInterceptorPriority();
        } catch (IdempotencyConfigurationException e) {
            adv.addDeploymentProblem(e);
            problems.forEach(adv::addDeploymentProblem);
            return; // the operations are resolved against these settings: nothing more to check
        }
        for (Runnable check : List.<Runnable>of(
                () -> StoreSelector.bean(bm, global.store()),
                () -> MemoryStoreSettings.from(settings),
                () -> OpsSettings.from(settings))) {
            try {
                check.run();
            } catch (IdempotencyConfigurationException e) {
                adv.addDeploymentProblem(e);
            }
        }
        problems.forEach(adv::addDeploymentProblem);
        IdempotencyConfigurationException unguarded = InterceptorCheck.missing(
                bm,
                IdempotentLiteral.INSTANCE,
                List.of(IdempotentInterceptor.class, IdempotentWorkInterceptor.class),
                "@Idempotent",
                guarded.stream()
                        .map(g -> PolicyResolver.describe(g.method()))
                        .distinct()
                        .toList());
        if (unguarded != null) {
            adv.addDeploymentProblem(unguarded);
        }
        PolicyResolver policies = new PolicyResolver(settings);
        // Plans are built against a throwaway engine only to surface errors now; the runtime builds its own.
        IdempotencyEngine probe = new IdempotencyEngine(new MemoryIdempotencyStore());
        Map<String, Guarded> byName = new HashMap<>();
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
                String name = policy.name();
                Guarded other = byName.putIfAbsent(name, g);
                if (other != null && !sameOperation(other.method(), g.method())) {
                    adv.addDeploymentProblem(sharedName(name, other.method(), g.method()));
                }
            } catch (IdempotencyConfigurationException ex) {
                adv.addDeploymentProblem(ex);
            }
        }
    }

    /**
     * Whether two guarded methods are one operation, which may share a name: one method (inherited by
     * two beans), or two implementations of one interface method that carries the name.
     */
    private static boolean sameOperation(Method a, Method b) {
        return Declarations.operationIdentity(a).equals(Declarations.operationIdentity(b));
    }

    private static IdempotencyConfigurationException sharedName(String name, Method a, Method b) {
        return new IdempotencyConfigurationException("@Idempotent methods " + PolicyResolver.defaultName(a) + " and "
                + PolicyResolver.defaultName(b) + " both have the operation name '" + name
                + "', so each would replay the other's outcomes for the same key; give one of them its own name"
                + " with @Idempotent(name = ...) on that method.");
    }

    /**
     * The {@code @Idempotent} that applies to a method as a bean class has it ({@link
     * Declarations#effective}): on the method or a method it overrides or implements, else on the
     * class of the target (inherited), else on the declaring type or an interface declaring it. A
     * class-level one also applies to a non-public method that the interceptor is called for.
     */
    static Idempotent effectiveAnnotation(Method method, Class<?> targetClass) {
        Idempotent a = Declarations.effective(method, targetClass);
        if (a == null && targetClass != null) {
            a = targetClass.getAnnotation(Idempotent.class);
        }
        if (a == null) {
            a = method.getDeclaringClass().getAnnotation(Idempotent.class);
        }
        return a;
    }

    /** The interceptor binding, added to methods whose {@code @Idempotent} is declared elsewhere. */
    @SuppressWarnings("all")
    private static final class IdempotentLiteral extends jakarta.enterprise.util.AnnotationLiteral<Idempotent>
            implements Idempotent {
        static final IdempotentLiteral INSTANCE = new IdempotentLiteral();

        @SuppressWarnings("unchecked")
        private static final Class<? extends Throwable>[] NONE = (Class<? extends Throwable>[]) new Class<?>[0];

        @Override
        public String name() {
            return "";
        }

        @Override
        public String ttl() {
            return "";
        }

        @Override
        public String lease() {
            return "";
        }

        @Override
        public dev.idempotency.InProgressPolicy onInProgress() {
            return dev.idempotency.InProgressPolicy.REJECT;
        }

        @Override
        public Class<? extends Throwable>[] releaseOn() {
            return NONE.clone();
        }

        @Override
        public Class<? extends Throwable>[] keepOn() {
            return NONE.clone();
        }

        @Override
        public boolean required() {
            return false;
        }

        @Override
        public dev.idempotency.Participation transaction() {
            return dev.idempotency.Participation.SEPARATE;
        }
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
