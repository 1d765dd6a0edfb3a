package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import java.util.List;

/**
 * The classes with guarded methods that {@link IdempotencyBuildExtension} found, as a synthetic bean:
 * on ArC the extension runs at build time, so the runtime scans these classes again (the same {@link
 * GuardedScan}) to plan their methods when it starts. Present only where the build-compatible
 * extension ran.
 */
public final class BuildCompatibleScan {

    static final String CLASSES = "classes";

    private final List<String> classes;

    BuildCompatibleScan(List<String> classes) {
        this.classes = List.copyOf(classes);
    }

    /** The scan of the classes, as the application's class loader has them. */
    GuardedScan scan() {
        GuardedScan scan = new GuardedScan();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (String name : classes) {
            Class<?> cls;
            try {
                cls = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IdempotencyConfigurationException(
                        "The class " + name + " had @Idempotent methods at build time but cannot be loaded now (" + e
                                + "); rebuild the application.",
                        e);
            }
            scan.collect(cls, GuardedScan.methodsOf(cls));
        }
        return scan;
    }

    /** Creates the bean from the extension's parameters. */
    public static final class Creator implements SyntheticBeanCreator<BuildCompatibleScan> {
        @Override
        public BuildCompatibleScan create(Instance<Object> lookup, Parameters params) {
            return new BuildCompatibleScan(List.of(params.get(CLASSES, String[].class, new String[0])));
        }
    }
}
