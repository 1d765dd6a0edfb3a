package dev.idempotency.ops.inspection;

import dev.idempotency.internal.ops.Jmx;
import dev.idempotency.internal.ops.OpsSettings;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.security.AccessController;
import java.security.Principal;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.security.auth.Subject;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers the inspection MBean with the application and removes it with the application: read-only
 * ({@link InspectionMXBean}), or with the repairs ({@link InspectionRepairMXBean}) when {@code
 * idempotency.inspection.jmx.repair.enabled=true}.
 */
@ApplicationScoped
public class InspectionJmx implements InspectionRepairMXBean {

    @Inject
    RecordInspector inspector;

    private ObjectName registered;

    /** Registers the MBean when the application starts. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        boolean repair = OpsSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class))
                .inspectionJmxRepairEnabled();
        // Without the switch the repairs are not registered at all: no JMX bridge can call them.
        Class<? extends InspectionMXBean> view = repair ? InspectionRepairMXBean.class : InspectionMXBean.class;
        registered = Jmx.register(Jmx.applicationName(), "Inspection", null, mbean(view));
    }

    private <T extends InspectionMXBean> StandardMBean mbean(Class<T> view) {
        return new StandardMBean(view.cast(this), view, true);
    }

    @PreDestroy
    void stop() {
        Jmx.unregister(registered);
    }

    @Override
    public String find(String operation, String scope, String key) {
        return inspector
                .find(operation, nonNull(scope), key)
                .map(RecordView::toString)
                .orElse("not found");
    }

    @Override
    public String releaseInProgress(String operation, String scope, String key) {
        return inspector
                .releaseInProgress(operation, nonNull(scope), key, actor())
                .name();
    }

    @Override
    public String deleteCompleted(String operation, String scope, String key) {
        return inspector
                .deleteCompleted(operation, nonNull(scope), key, actor())
                .name();
    }

    @Override
    public String methodKey(String[] keyValues) {
        return RecordInspector.methodKey((Object[]) keyValues);
    }

    private static String nonNull(String scope) {
        return scope == null ? "" : scope;
    }

    /** The JMX caller: an authenticating connector runs the operation as the client's Subject. */
    @SuppressWarnings("removal")
    private static String actor() {
        try {
            Subject subject = Subject.getSubject(AccessController.getContext());
            if (subject != null && !subject.getPrincipals().isEmpty()) {
                return "jmx:"
                        + subject.getPrincipals().stream()
                                .map(Principal::getName)
                                .collect(Collectors.joining(","));
            }
        } catch (RuntimeException | LinkageError e) {
            // A JVM without the security manager APIs: the caller is unknown.
        }
        return "jmx";
    }
}
