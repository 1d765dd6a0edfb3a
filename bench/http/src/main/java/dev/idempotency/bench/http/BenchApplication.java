package dev.idempotency.bench.http;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The benchmark's JAX-RS application, under {@code /bench/api}. */
@ApplicationPath("api")
public class BenchApplication extends Application {}
