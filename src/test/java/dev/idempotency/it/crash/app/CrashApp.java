package dev.idempotency.it.crash.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The crash test's JAX-RS application. */
@ApplicationPath("api")
public class CrashApp extends Application {}
