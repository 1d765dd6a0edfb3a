package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.InterceptionType;
import jakarta.enterprise.inject.spi.Interceptor;
import java.lang.annotation.Annotation;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Fails the deployment when a guard's interceptor is not enabled, instead of letting its methods run
 * unguarded: a CDI container skips an interceptor whose class needs a type it cannot load (Weld with
 * an INFO line only), and an extension may veto one. Checked at deployment validation, where the
 * container knows its enabled interceptors.
 */
final class InterceptorCheck {

    private InterceptorCheck() {}

    /**
     * The problem, or {@code null}: the interceptors of {@code binding} enabled in {@code bm} include
     * every class of {@code needed}.
     *
     * @param binding an instance of the binding annotation (its members are non-binding)
     * @param annotation how the methods are annotated, e.g. {@code @Idempotent}
     * @param methods the methods that would run unguarded, described for the message
     */
    static IdempotencyConfigurationException missing(
            BeanManager bm, Annotation binding, List<Class<?>> needed, String annotation, Collection<String> methods) {
        if (methods.isEmpty()) {
            return null;
        }
        List<Interceptor<?>> enabled = enabled(bm, binding);
        List<String> absent = needed.stream()
                .filter(c -> enabled.stream().noneMatch(i -> i.getBeanClass() == c))
                .map(Class::getName)
                .collect(Collectors.toList());
        if (absent.isEmpty()) {
            return null;
        }
        return new IdempotencyConfigurationException("The " + annotation + " methods " + methods
                + " would run unguarded: this container has not enabled the library's interceptor " + absent
                + ". A CDI container skips an interceptor whose class needs a type it cannot load (look for a"
                + " log line naming it), or an extension vetoed it. Deploy the jar as a bean archive of the"
                + " application, with the APIs it needs: CDI, Interceptors, Jakarta REST, JSON-B and JSON-P,"
                + " MicroProfile Config.");
    }

    private static List<Interceptor<?>> enabled(BeanManager bm, Annotation binding) {
        try {
            return bm.resolveInterceptors(InterceptionType.AROUND_INVOKE, binding);
        } catch (RuntimeException e) {
            return List.of(); // none resolves for this binding
        }
    }
}
