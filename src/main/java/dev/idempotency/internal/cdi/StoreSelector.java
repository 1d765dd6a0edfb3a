package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Set;
import java.util.TreeSet;

/**
 * Resolves {@code idempotency.store}: {@code memory} is built in; any other name is a CDI bean of type
 * {@link IdempotencyStore} with that {@code @Named} value (the JPA and Infinispan stores register
 * themselves as {@code jpa} and {@code infinispan} when their libraries are present).
 */
final class StoreSelector {

    /** The built-in store's name. */
    static final String MEMORY = "memory";

    private StoreSelector() {}

    /** The bean that serves a store name, or {@code null} for the built-in memory store. */
    static Bean<?> bean(BeanManager bm, String name) {
        if (MEMORY.equals(name)) {
            return null;
        }
        BeanManager seeing = managerSeeing(bm, name);
        Set<Bean<?>> beans = seeing.getBeans(IdempotencyStore.class, NamedLiteral.of(name));
        if (beans.isEmpty()) {
            throw unknown(name, available(seeing));
        }
        return seeing.resolve(beans);
    }

    /** The refusal of a store name that no store has. */
    static IdempotencyConfigurationException unknown(String name, Set<String> available) {
        return new IdempotencyConfigurationException("Config key '" + GlobalSettings.STORE + "' is '" + name
                + "', but no store has that name; available: " + available
                + ". Use one of those, or declare a CDI bean implementing IdempotencyStore with @Named(\""
                + name + "\").");
    }

    /**
     * The bean manager that sees the named store: {@code bm} if it does, else the application's. On
     * Payara (Weld in GlassFish), the bean manager of this library's archive does not see beans of
     * WEB-INF/classes or of other jars, so a store the application declares is only visible to the
     * application's bean manager ({@code CDI.current()}).
     */
    static BeanManager managerSeeing(BeanManager bm, String name) {
        if (!bm.getBeans(IdempotencyStore.class, NamedLiteral.of(name)).isEmpty()) {
            return bm;
        }
        try {
            BeanManager app = jakarta.enterprise.inject.spi.CDI.current().getBeanManager();
            return app == null ? bm : app;
        } catch (RuntimeException e) {
            return bm;
        }
    }

    /** The names that {@code idempotency.store} accepts in this deployment. */
    static Set<String> available(BeanManager bm) {
        Set<String> names = new TreeSet<>();
        names.add(MEMORY);
        for (Bean<?> b : bm.getBeans(IdempotencyStore.class, jakarta.enterprise.inject.Any.Literal.INSTANCE)) {
            if (b.getName() != null) {
                names.add(b.getName());
            }
        }
        return names;
    }
}
