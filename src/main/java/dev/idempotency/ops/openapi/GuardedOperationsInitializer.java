package dev.idempotency.ops.openapi;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.ws.rs.Path;
import java.util.Set;

/**
 * Hands {@link GuardedOperations} the {@code @Path} classes of a web application when it starts. Listed
 * in {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}; only a servlet container
 * loads it.
 */
@HandlesTypes(Path.class)
public class GuardedOperationsInitializer implements ServletContainerInitializer {

    /** Created by the servlet container. */
    public GuardedOperationsInitializer() {}

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        GuardedOperations.collected(classes == null ? Set.of() : classes, context.getClassLoader());
    }
}
