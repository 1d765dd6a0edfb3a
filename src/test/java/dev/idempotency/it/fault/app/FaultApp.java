package dev.idempotency.it.fault.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The fault test's JAX-RS application; the library's feature registers itself. */
@ApplicationPath("api")
public class FaultApp extends Application {}
