package dev.idempotency.internal.jaxrs;

/**
 * Whether the Jakarta REST runtime configuring a feature is one that finds this jar's providers only by
 * scanning for {@code @Provider} and does not read its {@code META-INF/services} files: Quarkus REST
 * (RESTEasy Reactive). Jersey (GlassFish, Payara, Helidon), RESTEasy (WildFly, Open Liberty) read the
 * service files, and also register {@code @Provider} classes they find in library jars: so the library's
 * {@code @Provider} classes ({@link ScannedIdempotencyFeature}, {@link ScannedExceptionFeature}) do
 * nothing there, and the providers are registered once, by the service files. Told by the class of the
 * runtime's feature context, read by name: no Quarkus type is on this jar's class path.
 */
public final class ScanningRuntime {

    private static final String QUARKUS_REST = "org.jboss.resteasy.reactive.";

    private ScanningRuntime() {}

    /** Whether {@code featureContext}, a runtime's {@code FeatureContext}, is Quarkus REST's. */
    public static boolean configures(Object featureContext) {
        for (Class<?> c = featureContext.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().startsWith(QUARKUS_REST)) {
                return true;
            }
        }
        return false;
    }
}
