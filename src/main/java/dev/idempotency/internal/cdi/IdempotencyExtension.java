package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.Declarations;
import dev.idempotency.internal.core.GlobalSettings;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds every {@link Idempotent} method at deployment and validates it (durations, key readability,
 * return type, store name), so that invalid use fails the deployment with a message naming the method
 * and the fix, not the first call. Also applies {@code idempotency.interceptor.priority}.
 */
public class IdempotencyExtension implements Extension {

    /** What this deployment guards, found as types are processed. */
    private final GuardedScan scan = new GuardedScan();

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
        List<Method> methods = new ArrayList<>();
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            methods.add(m.getJavaMember());
        }
        Set<Method> toBind = scan.collect(type.getJavaClass(), methods);
        if (!toBind.isEmpty()) {
            pat.configureAnnotatedType()
                    .filterMethods(m -> toBind.contains(m.getJavaMember()))
                    .forEach(m -> m.add(IdempotentLiteral.INSTANCE));
        }
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

    /** What this deployment guards. */
    GuardedScan scan() {
        return scan;
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        scan.validate(
                        MicroProfileConfigLookup.current(),
                        store -> StoreSelector.bean(bm, store),
                        () -> InterceptorCheck.missing(
                                bm,
                                IdempotentLiteral.INSTANCE,
                                List.of(IdempotentInterceptor.class, IdempotentWorkInterceptor.class),
                                "@Idempotent",
                                scan.described()))
                .forEach(adv::addDeploymentProblem);
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
    static final class IdempotentLiteral extends jakarta.enterprise.util.AnnotationLiteral<Idempotent>
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
    static final class PriorityLiteral extends jakarta.enterprise.util.AnnotationLiteral<Priority> implements Priority {
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
