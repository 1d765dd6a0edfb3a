package dev.idempotency.internal.jaxrs;

import dev.idempotency.Participation;
import dev.idempotency.internal.core.EntryPointServices;
import dev.idempotency.internal.core.RetiredKeys;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;

/**
 * The checks that need every operation known and the store started, so that a configuration that
 * cannot work fails the startup: no retired key is set, no asynchronous resource method uses the joined
 * mode, the store starts and can join where an operation joins. Run when the web module starts on a
 * servlet container ({@link DeploymentCheck}), else when the application scope starts (the CDI runtime,
 * on Helidon and other runtimes without Servlet). Internal.
 */
public final class StartupCheck {

    private StartupCheck() {}

    /**
     * @param classes the application's classes that may hold resource methods ({@code @Path} classes
     *     among them; others are ignored)
     * @param config the application's configuration
     * @param runtime the idempotency runtime, whose CDI operations are planned already
     * @throws dev.idempotency.IdempotencyConfigurationException the configuration cannot work
     */
    public static void run(Set<Class<?>> classes, Config config, EntryPointServices runtime) {
        RetiredKeys.check(config.getPropertyNames());
        List<GuardedRoutes.Route> routes = GuardedRoutes.of(classes, key -> config.getOptionalValue(key, String.class));
        Map<String, Participation> operations = new TreeMap<>();
        for (GuardedRoutes.Route route : routes) {
            operations.putIfAbsent(route.operation(), route.transaction());
            if (route.async() && route.transaction() == Participation.JOINED) {
                throw IdempotencyFeature.asyncJoined(route.method(), route.operation());
            }
        }
        // Every operation is known now: the CDI ones were planned with the runtime, the routes above.
        // Starts a store that starts lazily; a configuration it cannot work with throws here.
        runtime.engine().checkTransactions(operations);
    }
}
