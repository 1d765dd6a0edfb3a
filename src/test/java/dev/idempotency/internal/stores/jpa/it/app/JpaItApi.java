package dev.idempotency.internal.stores.jpa.it.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application of the JPA store ITs. */
@ApplicationPath("api")
public class JpaItApi extends Application {}
