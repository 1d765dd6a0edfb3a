package dev.idempotency.it.http.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

/** Guarded through its resource interface only ({@link TicketsApi}). */
@Path("tickets")
public class TicketsResource implements TicketsApi {

    @Inject
    Counter counter;

    @Override
    public String open(String subject) {
        return subject + "-" + counter.ran("ticket:" + subject);
    }
}
