package dev.idempotency.internal.stores.infinispan.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deployment WITHOUT Infinispan on its class path: it must deploy and guard its method with the
 * memory store although the idempotency jar carries the Infinispan store and its extension.
 */
public final class PlainApp {

    private PlainApp() {}

    /** JAX-RS activation. */
    @ApplicationPath("/api")
    public static class Activator extends Application {}

    /** A guarded method with an in-memory run counter (this app runs on one node). */
    @ApplicationScoped
    public static class Counter {
        final AtomicInteger runs = new AtomicInteger();

        /** Counts its runs. */
        @Idempotent(name = "ispn-it.plain")
        public String run(@IdempotencyKey String key) {
            return key + " run " + runs.incrementAndGet();
        }

        /** How often {@link #run} really ran (a method: fields of a client proxy are not the bean's). */
        public int runs() {
            return runs.get();
        }
    }

    /** HTTP front. */
    @Path("/")
    @ApplicationScoped
    @Produces(MediaType.TEXT_PLAIN)
    public static class Resource {
        @Inject
        Counter counter;

        @Inject
        IdempotencyRuntime runtime;

        /** Runs or replays. */
        @POST
        @Path("run/{key}")
        public String run(@PathParam("key") String key) {
            return counter.run(key);
        }

        /** How often the method really ran. */
        @GET
        @Path("runs")
        public String runs() {
            return String.valueOf(counter.runs());
        }

        /** The store class the runtime picked. */
        @GET
        @Path("store")
        public String store() {
            return runtime.engine().store().getClass().getName()
                    + (classVisible("org.infinispan.manager.EmbeddedCacheManager") ? " infinispan-visible" : "");
        }

        private static boolean classVisible(String name) {
            try {
                Class.forName(name, false, Resource.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }
}
