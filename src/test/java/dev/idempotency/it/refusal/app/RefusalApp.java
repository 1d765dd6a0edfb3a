package dev.idempotency.it.refusal.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The refusal test's JAX-RS application. */
@ApplicationPath("api")
public class RefusalApp extends Application {}
