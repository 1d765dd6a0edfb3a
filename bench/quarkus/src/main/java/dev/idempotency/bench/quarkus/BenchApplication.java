package dev.idempotency.bench.quarkus;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The benchmark's JAX-RS application, under {@code /bench/api} as bench/http's on Payara Micro. */
@ApplicationPath("/bench/api")
public class BenchApplication extends Application {}
