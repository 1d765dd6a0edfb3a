package dev.idempotency.ops.inspection;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.ops.OpsSettings;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.StringReader;
import java.time.Instant;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@code POST <application path>/idempotency/records/{find,release,delete}} with a JSON body {@code
 * {"operation": ..., "scope": ..., "key": ...}} (in the body, never in the URL, so that keys stay out
 * of access logs). Off unless {@code idempotency.inspection.http.enabled=true} (404 otherwise); when
 * on, the caller must be authenticated (401) and in the role {@code idempotency.inspection.http.role}
 * (403). Answers carry the record's view (never the stored outcome, never the raw key) or the repair's
 * outcome, with {@code Cache-Control: no-store}.
 */
@Path(InspectionResource.PATH)
public class InspectionResource {

    /** The resource's path below the application path. */
    public static final String PATH = "idempotency/records";

    private static final String PROBLEM = "application/problem+json";
    private static final String TYPE_PREFIX = "urn:idempotency-ee:problem:";

    /** Created by the JAX-RS runtime. */
    public InspectionResource() {}

    /** The record of a key: 200 with its view, 404 when no live record has the key. */
    @POST
    @Path("find")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response find(@Context SecurityContext security, String body) {
        return handle(security, body, (inspector, a, who) -> inspector
                .find(a.operation, a.scope, a.key)
                .map(v -> ok(view(v)))
                .orElseGet(() -> problem(
                        404,
                        "record-not-found",
                        "No live record",
                        "No live record has this key for operation '" + a.operation
                                + "' and this scope: it was never claimed, or it was released, or it expired.")));
    }

    /** Releases a stuck IN_PROGRESS claim: 200 with the outcome. */
    @POST
    @Path("release")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response release(@Context SecurityContext security, String body) {
        return handle(
                security,
                body,
                (inspector, a, who) -> repair(inspector.releaseInProgress(a.operation, a.scope, a.key, who)));
    }

    /** Deletes a COMPLETED record: 200 with the outcome. */
    @POST
    @Path("delete")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response delete(@Context SecurityContext security, String body) {
        return handle(
                security,
                body,
                (inspector, a, who) -> repair(inspector.deleteCompleted(a.operation, a.scope, a.key, who)));
    }

    private interface Action {
        Response run(RecordInspector inspector, Address address, String who);
    }

    private record Address(String operation, String scope, String key) {}

    private static Response handle(SecurityContext security, String body, Action action) {
        OpsSettings settings =
                OpsSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
        if (!settings.inspectionHttpEnabled()) {
            return problem(
                    404,
                    "inspection-disabled",
                    "Inspection disabled",
                    "This application does not expose idempotency records over HTTP; operators can enable it"
                            + " with " + OpsSettings.INSPECTION_HTTP_ENABLED + "=true (and a role in "
                            + OpsSettings.INSPECTION_ROLE + "), or use the JMX operations.");
        }
        if (security == null || security.getUserPrincipal() == null) {
            return problem(
                    401,
                    "unauthenticated",
                    "Authentication required",
                    "The idempotency inspection resource needs an authenticated caller in the role '"
                            + settings.inspectionRole() + "'.");
        }
        if (!security.isUserInRole(settings.inspectionRole())) {
            return problem(
                    403,
                    "forbidden",
                    "Role required",
                    "The idempotency inspection resource needs the role '" + settings.inspectionRole() + "' ("
                            + OpsSettings.INSPECTION_ROLE + ").");
        }
        Address address;
        try {
            address = address(body);
        } catch (IllegalArgumentException e) {
            return problem(400, "inspection-request-invalid", "Invalid inspection request", e.getMessage());
        }
        try {
            return action.run(
                    CDI.current().select(RecordInspector.class).get(),
                    address,
                    "http:" + security.getUserPrincipal().getName());
        } catch (IdempotencyStoreUnavailableException e) {
            return problem(
                    503,
                    "store-unavailable",
                    "Idempotency store unavailable",
                    "The idempotency store could not be reached; retry later.");
        }
    }

    private static Address address(String body) {
        JsonObject json;
        try {
            json = Json.createReader(new StringReader(body == null ? "" : body)).readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException(
                    "Send a JSON object {\"operation\": \"...\", \"scope\": \"...\", \"key\": \"...\"}.");
        }
        String operation = text(json, "operation");
        String key = text(json, "key");
        String scope = json.containsKey("scope") ? text(json, "scope") : "";
        if (operation == null || operation.isEmpty() || key == null || key.isEmpty() || scope == null) {
            throw new IllegalArgumentException("The JSON object needs the strings \"operation\" and \"key\", and"
                    + " \"scope\" (empty for CDI methods and unscoped HTTP operations).");
        }
        return new Address(operation, scope, key);
    }

    private static String text(JsonObject json, String name) {
        JsonValue v = json.get(name);
        return v instanceof JsonString s ? s.getString() : null;
    }

    private static JsonObject view(RecordView v) {
        JsonObjectBuilder b = Json.createObjectBuilder()
                .add("operation", v.operation())
                .add("keyHash", v.keyHash())
                .add("status", v.status().name());
        instant(b, "createdAt", v.createdAt());
        instant(b, "leaseEnd", v.leaseEnd());
        instant(b, "expiresAt", v.expiresAt());
        return b.add("fingerprint", v.fingerprint())
                .add("storedBytes", v.storedBytes())
                .build();
    }

    private static void instant(JsonObjectBuilder b, String name, Instant at) {
        if (at == null) {
            b.addNull(name);
        } else {
            b.add(name, at.toString());
        }
    }

    private static Response repair(RepairOutcome outcome) {
        return ok(Json.createObjectBuilder().add("outcome", outcome.name()).build());
    }

    private static Response ok(JsonObject json) {
        return Response.ok(json.toString(), MediaType.APPLICATION_JSON_TYPE)
                .cacheControl(noStore())
                .build();
    }

    private static CacheControl noStore() {
        CacheControl c = new CacheControl();
        c.setNoStore(true);
        c.setNoTransform(false);
        return c;
    }

    private static Response problem(int status, String slug, String title, String detail) {
        String body = Json.createObjectBuilder()
                .add("type", TYPE_PREFIX + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail)
                .build()
                .toString();
        return Response.status(status)
                .type(PROBLEM)
                .cacheControl(noStore())
                .entity(body)
                .build();
    }
}
