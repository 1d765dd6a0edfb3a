package dev.idempotency.internal.ops.health;

import dev.idempotency.internal.core.EntryPointServices;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.StoreKeys;
import jakarta.enterprise.inject.spi.CDI;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the idempotency store, named {@value #NAME}: UP when the store answers a read of a key
 * that does not exist, DOWN when the read fails. That one read is the store's own test of what it
 * needs: on the JPA store a connection and the table, on an Infinispan cluster a RAFT leader that a
 * majority still follows (a node cut off from the majority has none), on Redis a reachable server. While it is DOWN, guarded
 * calls get the store-unavailable outcome (503), so a load balancer should stop sending traffic.
 *
 * <p>Not a bean by itself (no bean-defining annotation): {@link HealthExtension} adds it where
 * MicroProfile Health is present, so a deployment without the API never loads it.
 */
@Readiness
public class StoreReadinessCheck implements HealthCheck {

    /** The check's name in the health report. */
    public static final String NAME = "idempotency-store";

    /** A store key (64 hex characters) that no call produces: an all-zero SHA-256. */
    static final String PROBE_KEY = "0".repeat(64);

    /** Created by the container. */
    public StoreReadinessCheck() {}

    @Override
    public HealthCheckResponse call() {
        // Looked up, not injected: a bean added by an extension may live in a bean archive that does not
        // see the library's beans (Payara), while CDI.current() is the application's container.
        EntryPointServices runtime =
                CDI.current().select(EntryPointServices.class).get();
        IdempotencyStore store = runtime.engine().store();
        // The configured name (memory, jpa, redis, ...), not the class: that is a container proxy's.
        HealthCheckResponseBuilder b =
                HealthCheckResponse.named(NAME).withData("store", StoreKeys.store(runtime.settings()));
        long started = System.nanoTime();
        try {
            store.read(PROBE_KEY);
            return b.withData("readMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                    .up()
                    .build();
        } catch (RuntimeException e) {
            return b.withData("error", e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()))
                    .down()
                    .build();
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) : line;
    }
}
