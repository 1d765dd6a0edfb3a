package dev.idempotency.internal.ops.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Adds {@link StoreReadinessCheck} as an application-scoped bean when MicroProfile Health is on the
 * deployment's class path. This class names no MicroProfile Health type, so the container can load
 * it in every deployment.
 */
public class HealthExtension implements Extension {

    private static final String PROBE = "org.eclipse.microprofile.health.HealthCheck";

    /** Created by the container through {@code ServiceLoader}. */
    public HealthExtension() {}

    void register(@Observes BeforeBeanDiscovery bbd, BeanManager bm) {
        if (!present()) {
            return;
        }
        bbd.addAnnotatedType(StoreReadinessCheck.class, StoreReadinessCheck.class.getName())
                .add(ApplicationScoped.Literal.INSTANCE);
    }

    private static boolean present() {
        for (ClassLoader cl : new ClassLoader[] {
            HealthExtension.class.getClassLoader(), Thread.currentThread().getContextClassLoader()
        }) {
            if (cl == null) {
                continue;
            }
            try {
                Class.forName(PROBE, false, cl);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not visible from this loader
            }
        }
        return false;
    }
}
