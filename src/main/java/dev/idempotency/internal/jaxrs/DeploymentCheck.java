package dev.idempotency.internal.jaxrs;

import dev.idempotency.internal.core.EntryPointServices;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.ws.rs.Path;
import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Fails the deployment of a web application whose idempotency configuration cannot work, when the web
 * module starts, on every server: a listener that throws from {@code contextInitialized} stops the
 * module. The {@link StartupCheck} needs that moment rather than CDI's deployment validation or the
 * JAX-RS feature: the JPA store's data source must be bound, and a data source that a {@code web.xml}
 * defines is bound on some servers (Payara, without an EJB in the WAR) only after the application scope
 * started; and some JAX-RS runtimes configure their features lazily or log a feature's failure instead
 * of failing the deployment. Without Servlet, the CDI runtime runs the same check when it starts.
 *
 * <p>It also adds {@link FormBodyFilter} to a WAR with resource classes. The servlet container hands
 * this initializer the {@code @Path} classes of the WAR. Listed in
 * {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}. Internal.
 */
@HandlesTypes(Path.class)
public class DeploymentCheck implements ServletContainerInitializer {

    private static final System.Logger LOG = System.getLogger(DeploymentCheck.class.getName());

    /** Created by the servlet container. */
    public DeploymentCheck() {}

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addListener(new Check(classes == null ? Set.of() : Set.copyOf(classes)));
        if (classes != null && !classes.isEmpty()) {
            // Before the application's own filters, so that the body is still unread.
            FilterRegistration.Dynamic form = context.addFilter(FormBodyFilter.class.getName(), new FormBodyFilter());
            if (form != null) {
                form.setAsyncSupported(true);
                form.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
            }
        }
    }

    private static final class Check implements ServletContextListener {
        private final Set<Class<?>> classes;

        Check(Set<Class<?>> classes) {
            this.classes = classes;
        }

        @Override
        public void contextInitialized(ServletContextEvent event) {
            EntryPointServices runtime;
            try {
                runtime = CDI.current().select(EntryPointServices.class).get();
            } catch (RuntimeException | LinkageError e) {
                // No CDI here (or not this library's): the feature reports it on the first guarded method.
                LOG.log(Level.DEBUG, "no idempotency runtime to check at startup: {0}", e.toString());
                return;
            }
            StartupCheck.run(
                    classes, ConfigProvider.getConfig(event.getServletContext().getClassLoader()), runtime);
        }

        @Override
        public void contextDestroyed(ServletContextEvent event) {}
    }
}
