package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.security.Principal;

/**
 * A resource that is also a CDI bean (request scoped), guarded at class level: every POST and PATCH
 * honours Idempotency-Key, GET and PUT pass through. Each method counts its real runs.
 */
@RequestScoped
@Path("orders")
@Idempotent
@Consumes({"text/plain", "application/json"})
public class OrdersResource {

    @Inject
    Counter counter;

    @Inject
    NestedStep nested;

    /** Creates an order: 201 with Location, ETag, Content-Language, a cookie, and a body unique per run. */
    @POST
    @Produces("application/json")
    public Response create(String body, @Context UriInfo uri) {
        int run = counter.ran("create:" + body);
        return Response.created(
                        uri.getAbsolutePathBuilder().path(body + "-" + run).build())
                .tag("v" + System.nanoTime())
                .language("en")
                .header("X-Run", run)
                .cookie(new NewCookie.Builder("session").value("s" + run).build())
                .entity("{\"echo\":\"" + body + "\",\"run\":" + run + ",\"nonce\":" + System.nanoTime() + "}")
                .build();
    }

    /** Only the body as parameter: the CDI interceptor, if it also guarded this, would replay by body. */
    @POST
    @Path("plain")
    @Produces("text/plain")
    public String plain(String body) {
        return "plain " + counter.ran("plain:" + body);
    }

    /** A safe method on the annotated class: never guarded, never replayed. */
    @GET
    @Path("{id}")
    @Produces("text/plain")
    public String get(@PathParam("id") String id) {
        return "get " + counter.ran("get:" + id);
    }

    /** PUT is idempotent by definition and not guarded by default. */
    @PUT
    @Path("{id}")
    @Produces("text/plain")
    public String put(@PathParam("id") String id, String body) {
        return "put " + counter.ran("put:" + id);
    }

    /** PATCH is guarded by default. */
    @PATCH
    @Path("{id}")
    @Produces("text/plain")
    public String patch(@PathParam("id") String id, String body) {
        return "patch " + counter.ran("patch:" + id);
    }

    /** Slow, so that concurrent repeats overlap it. */
    @POST
    @Path("slow")
    @Produces("text/plain")
    public Response slow(String body) {
        int run = counter.ran("slow:" + body);
        sleep(400);
        return Response.status(201).entity("slow " + run).build();
    }

    /** Concurrent repeats wait for the outcome instead of getting 409. */
    @POST
    @Path("wait")
    @Produces("text/plain")
    @Idempotent(onInProgress = InProgressPolicy.WAIT, lease = "PT20S")
    public Response waiting(String body) {
        int run = counter.ran("wait:" + body);
        sleep(400);
        return Response.status(201).entity("wait " + run).build();
    }

    /** As {@link #waiting}, running for {@code millis}: long enough for a flood of duplicates to arrive. */
    @POST
    @Path("wait-hold")
    @Produces("text/plain")
    @Idempotent(onInProgress = InProgressPolicy.WAIT, lease = "PT20S")
    public Response waitingHold(@QueryParam("millis") long millis, String body) {
        int run = counter.ran("wait-hold:" + body);
        sleep(millis);
        return Response.status(201).entity("wait " + run).build();
    }

    /** A missing key is refused. */
    @POST
    @Path("required")
    @Produces("text/plain")
    @Idempotent(required = true)
    public String required(String body) {
        return "required " + counter.ran("required:" + body);
    }

    /** Fails with a business exception mapped to the given status. */
    @POST
    @Path("mapped/{status}")
    public String mapped(@PathParam("status") int status, String body) {
        throw new MappedFailure(status, counter.ran("mapped:" + status + ":" + body));
    }

    /** Fails with an exception no mapper handles. */
    @POST
    @Path("unmapped")
    public String unmapped(String body) {
        counter.ran("unmapped:" + body);
        throw new IllegalStateException("unmapped failure");
    }

    /**
     * Runs, then returns an entity whose getter throws (as a lazy relation would): the response cannot
     * be written after the method had its effect.
     */
    @POST
    @Path("unwritable")
    @Produces("application/json")
    public Unwritable unwritable(String body) {
        counter.ran("unwritable:" + body);
        return new Unwritable();
    }

    /** An entity JSON-B cannot write. */
    public static class Unwritable {
        public String getAmount() {
            throw new IllegalStateException("lazy relation not loaded");
        }
    }

    /** A body of the requested size. */
    @POST
    @Path("big")
    @Produces("text/plain")
    public String big(@QueryParam("size") int size, String body) {
        counter.ran("big:" + body);
        return "x".repeat(size);
    }

    /** No entity: stored by the response filter. */
    @POST
    @Path("nobody")
    public Response nobody(String body) {
        return Response.noContent()
                .header("X-Run", counter.ran("nobody:" + body))
                .build();
    }

    /** Calls a guarded CDI bean, which must stay guarded. */
    @POST
    @Path("nested")
    @Produces("text/plain")
    public String nested(String body) {
        int run = counter.ran("nested-resource:" + body);
        return "resource " + run + " nested " + nested.step(body);
    }

    /** PUT is not guarded by the filter: only the nested bean's refusals can answer. */
    @PUT
    @Path("strict")
    @Produces("text/plain")
    public String strict(@QueryParam("id") String id, String body) {
        return nested.strict(id, body);
    }

    /** Who the caller is, and which run answered. */
    @POST
    @Path("whoami")
    @Produces("text/plain")
    public Response whoami(String body, @Context SecurityContext security) {
        Principal p = security.getUserPrincipal();
        String who = p == null ? "anonymous" : p.getName();
        return Response.status(201)
                .entity(who + " " + counter.ran("who:" + who + ":" + body))
                .build();
    }

    /** Slow enough for the client to disconnect before the response. */
    @POST
    @Path("disconnect")
    @Produces("text/plain")
    public Response disconnect(String body) {
        int run = counter.ran("disconnect:" + body);
        sleep(800);
        return Response.status(201).entity("disconnect " + run).build();
    }

    /** Cheap target of the header fuzz test. */
    @POST
    @Path("fuzz")
    @Produces("text/plain")
    public Response fuzz(String body) {
        return Response.status(201).entity("ok").build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
