package demo;

import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /joined-orders}: the effect row and the idempotency record in one JTA transaction
 * ({@code transaction = JOINED}), so that they commit or roll back together.
 */
@Path("joined-orders")
@RequestScoped
public class JoinedOrdersResource {

    /** The app's JTA data source: {@code demo.joined.datasource}, default {@code ordersjta}. */
    @Inject
    @ConfigProperty(name = "demo.joined.datasource", defaultValue = "ordersjta")
    String dataSource;

    @Inject
    @Any
    Instance<DataSource> dataSources;

    @Inject
    FailSwitch failSwitch;

    @POST
    @Idempotent(required = true, transaction = Participation.JOINED)
    @Transactional
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response place(JsonObject order) throws SQLException, InterruptedException {
        String ref = order.getString("ref");
        long cents = order.getJsonNumber("cents").longValue();
        DataSource orders = dataSources.select(NamedLiteral.of(dataSource)).get();
        try (Connection connection = orders.getConnection()) {
            Effects.insert(connection, "joined", ref, cents);
        }
        if (failSwitch.take()) {
            throw new IllegalStateException("deliberate failure after the effect row of " + ref);
        }
        long hold = order.containsKey("holdMillis")
                ? order.getJsonNumber("holdMillis").longValue()
                : 0;
        if (hold > 0) {
            Thread.sleep(hold);
        }
        String id = UUID.randomUUID().toString();
        JsonObject created = Json.createObjectBuilder()
                .add("id", id)
                .add("ref", ref)
                .add("cents", cents)
                .build();
        return Response.created(URI.create("joined-orders/" + id))
                .entity(created)
                .build();
    }
}
