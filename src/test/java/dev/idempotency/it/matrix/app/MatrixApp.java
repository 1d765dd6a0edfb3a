package dev.idempotency.it.matrix.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The fault matrix's JAX-RS application. */
@ApplicationPath("api")
public class MatrixApp extends Application {}
