package dev.idempotency.ops.openapi;

import dev.idempotency.internal.ops.OpsSettings;
import dev.idempotency.internal.tokens.http.OneTimeTokenEndpoint;
import dev.idempotency.ops.inspection.InspectionResource;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.tokens.TokenSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Documents the idempotency contract in the OpenAPI document of every resource method the
 * Idempotency-Key filter guards (and of no other): the key header parameter (required or not, per
 * {@code @Idempotent(required)}), the {@code Idempotent-Replayed} header on success responses, and
 * the 400, 409, 422 and 503 {@code application/problem+json} responses, 409 and 503 with {@code
 * Retry-After}.
 *
 * <p>The jar's own {@code META-INF/microprofile-config.properties} sets {@code mp.openapi.filter} to
 * this class at a low ordinal (50). An application with a filter of its own (which wins) can call
 * {@code new IdempotencyOasFilter().filterOpenAPI(openAPI)} from its filter.
 */
public class IdempotencyOasFilter implements OASFilter {

    /** The problem types' prefix, as in every problem this library sends. */
    static final String TYPE_PREFIX = "urn:idempotency-ee:problem:";

    private static final String PROBLEM = "application/problem+json";
    private static final String MARK = "x-idempotency";

    /** Created by the MicroProfile OpenAPI runtime. */
    public IdempotencyOasFilter() {}

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        dropDisabledEndpoints(openAPI);
        List<GuardedOperations.Route> routes = routes();
        if (routes.isEmpty() || openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path :
                openAPI.getPaths().getPathItems().entrySet()) {
            Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
            if (operations == null) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> op : operations.entrySet()) {
                GuardedOperations.Route route = match(routes, path.getKey(), op.getKey());
                if (route != null) {
                    document(op.getValue(), route);
                }
            }
        }
    }

    /**
     * Removes the library's own endpoints that are off ({@code idempotency.tokens.endpoint.enabled},
     * {@code idempotency.inspection.http.enabled}): they are not registered, but a server that scans
     * every {@code @Path} class of the application's jars (Open Liberty) documents them anyway.
     */
    static void dropDisabledEndpoints(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        Config config = ConfigProvider.getConfig(IdempotencyOasFilter.class.getClassLoader());
        ConfigLookup settings = key -> config.getOptionalValue(key, String.class);
        List<String> off = new ArrayList<>();
        if (!TokenSettings.from(settings).endpointEnabled()) {
            off.add(OneTimeTokenEndpoint.PATH);
        }
        if (!OpsSettings.from(settings).inspectionHttpEnabled()) {
            off.add(InspectionResource.PATH);
        }
        for (String path : List.copyOf(openAPI.getPaths().getPathItems().keySet())) {
            String p = "/" + trim(path) + "/";
            if (off.stream().anyMatch(o -> p.contains("/" + o + "/"))) {
                openAPI.getPaths().removePathItem(path);
            }
        }
    }

    private static List<GuardedOperations.Route> routes() {
        // This class comes from the application's WEB-INF/lib, so its loader is the application's; the
        // thread that builds the document may run with the server's.
        List<GuardedOperations.Route> own = GuardedOperations.of(IdempotencyOasFilter.class.getClassLoader());
        return own.isEmpty() ? GuardedOperations.of(Thread.currentThread().getContextClassLoader()) : own;
    }

    /**
     * The route a documented path and method stand for. Documented paths include the application path
     * ({@code /api/orders}); routes do not ({@code /orders}), so a path matches a route it ends with.
     */
    static GuardedOperations.Route match(
            List<GuardedOperations.Route> routes, String path, PathItem.HttpMethod method) {
        String p = trim(path);
        GuardedOperations.Route best = null;
        for (GuardedOperations.Route r : routes) {
            if (!r.httpMethod().equals(method.name().toUpperCase(Locale.ROOT))) {
                continue;
            }
            String t = trim(r.template());
            boolean matches = t.isEmpty() ? true : p.equals(t) || p.endsWith("/" + t);
            if (matches && (best == null || trim(best.template()).length() < t.length())) {
                best = r;
            }
        }
        return best;
    }

    private static String trim(String path) {
        String s = path == null ? "" : path.strip();
        while (s.startsWith("/")) {
            s = s.substring(1);
        }
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    private static void document(Operation operation, GuardedOperations.Route route) {
        if (operation.getExtensions() != null && operation.getExtensions().containsKey(MARK)) {
            return;
        }
        operation.addExtension(MARK, Map.of("operation", route.operation(), "required", route.required()));
        operation.addParameter(OASFactory.createParameter()
                .name(route.header())
                .in(Parameter.In.HEADER)
                .required(route.required())
                .description("A unique value per logical request (for example a random UUID), sent again unchanged"
                        + " when retrying it. A repeat gets the first response back, with Idempotent-Replayed: true,"
                        + " and the operation does not run again. Quoted (RFC 8941 sf-string) or bare, 1 to "
                        + route.keyMaxLength() + " characters."
                        + (route.required() ? "" : " Without it the request runs unguarded."))
                .schema(typed(Schema.SchemaType.STRING).minLength(1).maxLength(route.keyMaxLength())));
        String note = "Idempotent: a repeat with the same " + route.header()
                + " replays the first response (status, body, safe headers) with Idempotent-Replayed: true.";
        operation.setDescription(
                operation.getDescription() == null || operation.getDescription().isBlank()
                        ? note
                        : operation.getDescription() + "\n\n" + note);
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        if (responses.getAPIResponses() != null) {
            for (Map.Entry<String, APIResponse> r : responses.getAPIResponses().entrySet()) {
                if (r.getKey().startsWith("2")) {
                    r.getValue()
                            .addHeader(
                                    "Idempotent-Replayed",
                                    OASFactory.createHeader()
                                            .description("true when this response is a replay of the first"
                                                    + " response to this key")
                                            .schema(typed(Schema.SchemaType.STRING)));
                }
            }
        }
        if (route.required()) {
            add(responses, "400", "The " + route.header() + " header is missing or malformed", "key-missing", false);
        } else {
            add(responses, "400", "The " + route.header() + " header is malformed", "key-invalid", false);
        }
        add(
                responses,
                "409",
                "A request with this key is still in progress; retry after Retry-After",
                "in-progress",
                true);
        add(responses, "422", "This key was used with a different request", "key-mismatch", false);
        add(
                responses,
                "503",
                "The idempotency store is unavailable; the operation did not run. Retry after Retry-After",
                "store-unavailable",
                true);
    }

    /**
     * A schema of one type. MicroProfile OpenAPI 3.x sets it with {@code type(SchemaType)}, 4.x (MicroProfile
     * 7, Jakarta EE 11 servers) with {@code addType(SchemaType)}, and neither has the other: the method
     * is found once, so the filter works with the API of either generation.
     */
    static Schema typed(Schema.SchemaType type) {
        Schema schema = OASFactory.createSchema();
        try {
            return (Schema) SET_TYPE.invoke(schema, type);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot set a schema's type", t);
        }
    }

    private static final java.lang.invoke.MethodHandle SET_TYPE = setType();

    private static java.lang.invoke.MethodHandle setType() {
        java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.publicLookup();
        java.lang.invoke.MethodType sig = java.lang.invoke.MethodType.methodType(Schema.class, Schema.SchemaType.class);
        for (String name : new String[] {"type", "addType"}) {
            try {
                return lookup.findVirtual(Schema.class, name, sig);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                // the other generation's name
            }
        }
        throw new IllegalStateException("MicroProfile OpenAPI's Schema has neither type(SchemaType) nor"
                + " addType(SchemaType); this OpenAPI API version is not supported");
    }

    private static void add(
            APIResponses responses, String status, String description, String type, boolean retryAfter) {
        if (responses.hasAPIResponse(status)) {
            return;
        }
        Schema problem = typed(Schema.SchemaType.OBJECT)
                .description("RFC 9457 problem details; type is " + TYPE_PREFIX + type)
                .addProperty("type", typed(Schema.SchemaType.STRING))
                .addProperty("title", typed(Schema.SchemaType.STRING))
                .addProperty("status", typed(Schema.SchemaType.INTEGER))
                .addProperty("detail", typed(Schema.SchemaType.STRING));
        Content content = OASFactory.createContent()
                .addMediaType(PROBLEM, OASFactory.createMediaType().schema(problem));
        APIResponse response =
                OASFactory.createAPIResponse().description(description).content(content);
        if (retryAfter) {
            Header header = OASFactory.createHeader()
                    .description("Seconds to wait before retrying")
                    .schema(typed(Schema.SchemaType.INTEGER));
            response.addHeader("Retry-After", header);
        }
        responses.addAPIResponse(status, response);
    }
}
