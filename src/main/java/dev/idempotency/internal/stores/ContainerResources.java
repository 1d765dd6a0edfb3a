package dev.idempotency.internal.stores;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Named;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Finds a container resource (a data source, the JTA registry, the user transaction) the way every
 * runtime offers one: as a CDI bean first (Helidon and Quarkus offer their data sources and
 * transaction services only so), then in JNDI (the Jakarta EE servers). Internal.
 */
public final class ContainerResources {

    private ContainerResources() {}

    /**
     * The one CDI bean of {@code type}, with {@code @Named(name)} when a name is given, else with the
     * default qualifier; empty when there is none (or no CDI container here) or when it is ambiguous.
     * For the default bean, of several with the default qualifier the one without {@code @Named} is it:
     * a bean whose only qualifier is {@code @Named} keeps {@code @Default} too, so an application with a
     * default and a named data source (Quarkus's {@code quarkus.datasource.<name>.*}) has two.
     *
     * @param name a bean name, or {@code null} for the default bean
     */
    public static <T> Optional<T> bean(Class<T> type, String name) {
        Instance<T> found;
        try {
            Instance<Object> all = CDI.current();
            found = name == null ? all.select(type) : all.select(type, NamedLiteral.of(name));
        } catch (IllegalStateException | LinkageError e) {
            return Optional.empty(); // no CDI container, or one without this type's API
        }
        if (found.isResolvable()) {
            return Optional.of(found.get());
        }
        if (name == null && found.isAmbiguous()) {
            List<Instance.Handle<T>> unnamed = new ArrayList<>();
            for (Instance.Handle<T> h : found.handles()) {
                if (h.getBean().getQualifiers().stream().noneMatch(q -> q instanceof Named)) {
                    unnamed.add(h);
                }
            }
            if (unnamed.size() == 1) {
                return Optional.of(unnamed.get(0).get());
            }
        }
        return Optional.empty();
    }

    /** Whether several CDI beans of {@code type} have the default qualifier, none of them alone without a name. */
    public static boolean ambiguous(Class<?> type) {
        try {
            return CDI.current().select(type).isAmbiguous() && bean(type, null).isEmpty();
        } catch (IllegalStateException | LinkageError e) {
            return false;
        }
    }

    /**
     * Whether {@link #bean} can find beans yet, that is {@code CDI.current()} answers. Quarkus's ArC fires
     * {@code @Initialized(ApplicationScoped.class)} while it still sets up its container, during the app's
     * static init: {@code CDI.current()} fails there, and its runtime beans (its data sources among them)
     * cannot be used before the CDI {@code Startup} event.
     */
    public static boolean lookupsReady() {
        try {
            CDI.current();
            return true;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * The object bound at {@code jndiName}.
     *
     * @throws NamingException nothing is bound there, or there is no JNDI here
     */
    public static Object jndi(String jndiName) throws NamingException {
        try {
            return new InitialContext().lookup(jndiName);
        } catch (RuntimeException | LinkageError e) {
            // A runtime with no JNDI provider (Helidon, Quarkus) may fail with an unchecked error.
            NamingException n = new NamingException("no JNDI here: " + e);
            n.initCause(e);
            throw n;
        }
    }

    /** Whether the class {@code name} can be loaded by this library: an optional API is present. */
    public static boolean present(String name) {
        try {
            Class.forName(name, false, ContainerResources.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
