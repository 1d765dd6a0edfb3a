package dev.idempotency.it.http.app;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A business failure that an ExceptionMapper turns into the status it carries. */
public class MappedFailure extends RuntimeException {

    final int status;
    final int run;

    MappedFailure(int status, int run) {
        super("failure " + status);
        this.status = status;
        this.run = run;
    }

    /** Maps the failure to its status with a body naming the run. */
    @Provider
    public static class Mapper implements ExceptionMapper<MappedFailure> {
        @Override
        public Response toResponse(MappedFailure e) {
            return Response.status(e.status)
                    .type("application/json")
                    .entity("{\"failed\":" + e.status + ",\"run\":" + e.run + "}")
                    .build();
        }
    }
}
