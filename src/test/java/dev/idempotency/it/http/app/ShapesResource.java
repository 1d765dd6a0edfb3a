package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The body shapes a guarded resource method reads: each answers {@code run-<n> read <what it read>},
 * so a test sees both that a repeat was replayed and that the method got the whole body after the
 * guard had read it for the fingerprint.
 */
@Path("shapes")
@Produces(MediaType.TEXT_PLAIN)
@Idempotent
public class ShapesResource {

    /** A record, bound by JSON-B. */
    public record Line(String sku, int quantity) {}

    /** A bean with setters, holding a list of records, bound by JSON-B. */
    public static class Cart {
        private String owner;
        private List<Line> lines;

        public String getOwner() {
            return owner;
        }

        public void setOwner(String owner) {
            this.owner = owner;
        }

        public List<Line> getLines() {
            return lines;
        }

        public void setLines(List<Line> lines) {
            this.lines = lines;
        }
    }

    @Inject
    Counter counter;

    private String ran(String route, String read) {
        return "run-" + counter.ran("shapes:" + route) + " read " + read;
    }

    @POST
    @Path("text")
    @Consumes(MediaType.TEXT_PLAIN)
    public String text(String body) {
        return ran("text", body);
    }

    @POST
    @Path("bytes")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    public String bytes(byte[] body) {
        return ran("bytes", new String(body, StandardCharsets.UTF_8));
    }

    @POST
    @Path("stream")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    public String stream(InputStream body) throws IOException {
        return ran("stream", new String(body.readAllBytes(), StandardCharsets.UTF_8));
    }

    @POST
    @Path("json-object")
    @Consumes(MediaType.APPLICATION_JSON)
    public String jsonObject(JsonObject body) {
        return ran("json-object", body.getString("sku") + "x" + body.getInt("quantity"));
    }

    @POST
    @Path("record")
    @Consumes(MediaType.APPLICATION_JSON)
    public String record(Line body) {
        return ran("record", body.sku() + "x" + body.quantity());
    }

    @POST
    @Path("bean")
    @Consumes(MediaType.APPLICATION_JSON)
    public String bean(Cart body) {
        return ran("bean", body.getOwner() + ":" + lines(body.getLines()));
    }

    @POST
    @Path("list")
    @Consumes(MediaType.APPLICATION_JSON)
    public String list(List<Line> body) {
        return ran("list", lines(body));
    }

    @POST
    @Path("form")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public String form(@FormParam("a") String a, @FormParam("b") String b) {
        return ran("form", a + "," + b);
    }

    @POST
    @Path("form-map")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public String formMap(MultivaluedMap<String, String> form) {
        return ran("form-map", form.getFirst("a") + "," + form.getFirst("b"));
    }

    private static String lines(List<Line> lines) {
        return lines.stream().map(l -> l.sku() + "x" + l.quantity()).collect(Collectors.joining(","));
    }
}
