package dev.idempotency.examples.shop.ops;

import dev.idempotency.ops.metrics.IdempotencyMetrics;
import dev.idempotency.ops.metrics.OperationMetrics;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET api/ops/counters}: the library's counters per operation, for the page's live panel. The
 * same numbers are on the server's /metrics ({@code idempotency_calls_total}) and over JMX
 * (docs/operations.md).
 */
@Path("ops/counters")
@RequestScoped
public class CountersResource {

    @Inject
    IdempotencyMetrics metrics;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String counters() {
        JsonArrayBuilder operations = Json.createArrayBuilder();
        for (OperationMetrics m : metrics.operations()) {
            JsonObjectBuilder releases = Json.createObjectBuilder();
            m.releases().forEach(releases::add);
            operations.add(Json.createObjectBuilder()
                    .add("operation", m.operation())
                    .add("executions", m.executions())
                    .add("replays", m.replays())
                    .add("inProgress", m.inProgressRefusals())
                    .add("mismatches", m.mismatches())
                    .add("missingKeys", m.missingKeys())
                    .add("storeUnavailable", m.storeUnavailable())
                    .add("takeovers", m.takeovers())
                    .add("releases", releases)
                    .add("notStored", m.outcomesNotStored()));
        }
        JsonObjectBuilder body =
                Json.createObjectBuilder().add("store", metrics.storeName()).add("operations", operations);
        metrics.memoryRecords().ifPresent(n -> body.add("memoryRecords", n));
        return body.build().toString();
    }
}
