package dev.idempotency.bench.quarkus;

import jakarta.ws.rs.core.Response;

/** The resource's work, shared by both resources so that they differ only by the guard. */
final class Work {

    private Work() {}

    static Response answer(String body) {
        int length = body == null ? 0 : body.length();
        return Response.status(Response.Status.CREATED)
                .entity("{\"ok\":true,\"length\":" + length + "}")
                .build();
    }
}
