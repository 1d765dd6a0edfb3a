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
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the library's CDI extensions find and check at deployment, whichever kind runs: the portable
 * {@link IdempotencyExtension} (CDI Full: the EE servers, Helidon, Weld SE) and the build-compatible
 * {@link IdempotencyBuildExtension} (CDI Lite: Quarkus's ArC). One scan, on reflection, so that both
 * bind, refuse and plan exactly the same methods with the same messages.
 */
final class GuardedScan {

    /** Every guarded (bean class, method): a method inherited by two beans is validated for each. */
    private final Set<Guarded> guarded = new LinkedHashSet<>();
    /** The subset of {@link #guarded} that the interceptor serves (all but JAX-RS resource methods). */
    private final Set<Guarded> intercepted = new LinkedHashSet<>();
    /** Declarations found ambiguous while collecting, reported when the deployment is validated. */
    private final List<IdempotencyConfigurationException> problems = new ArrayList<>();

    /** A guarded method as a bean class has it (the class-level {@code @Idempotent} is the bean's). */
    record Guarded(Class<?> beanClass, Method method) {}

    /**
     * Finds the guarded methods of a type (among {@code methods}, the type's methods as the container has
     * them) and returns those that need the interceptor binding added because their {@code @Idempotent}
     * is declared where CDI does not look: on an interface method (abstract or default), an overridden
     * superclass method, or an interface.
     */
    Set<Method> collect(Class<?> cls, Iterable<Method> methods) {
        Set<Method> toBind = new LinkedHashSet<>();
        if (cls == IdempotentInterceptor.class
                || cls == IdempotentWorkInterceptor.class
                || cls.isInterface()
                || !Declarations.mayDeclare(cls)) {
            return toBind;
        }
        for (Method method : methods) {
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
            if (IdempotencyExtension.isResourceMethod(method)) {
                continue; // the JAX-RS filter's
            }
            intercepted.add(new Guarded(cls, method));
            if (!method.isAnnotationPresent(Idempotent.class) && !cls.isAnnotationPresent(Idempotent.class)) {
                toBind.add(method);
            }
        }
        return toBind;
    }

    /**
     * The methods of a class as CDI sees them: its own and those it inherits from its superclasses (the
     * nearest declaration of each) and the default methods it does not override, for a container that
     * offers no list of its own.
     */
    static List<Method> methodsOf(Class<?> cls) {
        List<Method> methods = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                String signature = m.getName() + java.util.Arrays.toString(m.getParameterTypes());
                if (Modifier.isPrivate(m.getModifiers()) || seen.add(signature)) {
                    methods.add(m);
                }
            }
        }
        for (Method m : cls.getMethods()) {
            if (m.isDefault() && seen.add(m.getName() + java.util.Arrays.toString(m.getParameterTypes()))) {
                methods.add(m);
            }
        }
        return methods;
    }

    private static boolean guardable(Method method) {
        int mod = method.getModifiers();
        return !Modifier.isStatic(mod)
                && !Modifier.isPrivate(mod)
                && !method.isSynthetic()
                && method.getDeclaringClass() != Object.class;
    }

    /** The bean classes with guarded methods, JAX-RS resource classes among them. */
    Set<Class<?>> guardedClasses() {
        Set<Class<?>> classes = new LinkedHashSet<>();
        guarded.forEach(g -> classes.add(g.beanClass()));
        return classes;
    }

    /** The guarded methods the CDI interceptor serves; JAX-RS resource methods are not among them. */
    Set<Guarded> intercepted() {
        return Collections.unmodifiableSet(intercepted);
    }

    /**
     * Every problem of the deployment, in the order a user should read them: the global settings (when
     * they are invalid nothing else is checked), the store name, the memory store's and the operations
     * tooling's settings, ambiguous declarations, missing interceptors, then each guarded method.
     *
     * @param storeCheck throws for a store name that no store has
     * @param interceptors the problem of missing interceptors, or {@code null}
     */
    List<IdempotencyConfigurationException> validate(
            ConfigLookup settings,
            Consumer<String> storeCheck,
            Supplier<IdempotencyConfigurationException> interceptors) {
        List<IdempotencyConfigurationException> found = new ArrayList<>();
        // Every global key is read here, also those read only later (ttl and lease only by operations that
        // set none, keep-alive when the runtime starts, the ops switches when their beans start).
        GlobalSettings global;
        try {
            global = GlobalSettings.from(settings);
            global.workInterceptorPriority();
        } catch (IdempotencyConfigurationException e) {
            found.add(e);
            found.addAll(problems);
            return found; // the operations are resolved against these settings: nothing more to check
        }
        for (Runnable check : List.<Runnable>of(
                () -> storeCheck.accept(global.store()),
                () -> MemoryStoreSettings.from(settings),
                () -> OpsSettings.from(settings))) {
            try {
                check.run();
            } catch (IdempotencyConfigurationException e) {
                found.add(e);
            }
        }
        found.addAll(problems);
        IdempotencyConfigurationException unguarded = interceptors.get();
        if (unguarded != null) {
            found.add(unguarded);
        }
        PolicyResolver policies = new PolicyResolver(settings);
        // Plans are built against a throwaway engine only to surface errors now; the runtime builds its own.
        IdempotencyEngine probe = new IdempotencyEngine(new MemoryIdempotencyStore());
        Map<String, Guarded> byName = new HashMap<>();
        for (Guarded g : guarded) {
            try {
                Idempotent annotation = IdempotencyExtension.effectiveAnnotation(g.method(), g.beanClass());
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
                    found.add(sharedName(name, other.method(), g.method()));
                }
            } catch (IdempotencyConfigurationException ex) {
                found.add(ex);
            }
        }
        return found;
    }

    /** The described guarded methods, for the missing-interceptor message. */
    List<String> described() {
        return guarded.stream()
                .map(g -> PolicyResolver.describe(g.method()))
                .distinct()
                .toList();
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
}
