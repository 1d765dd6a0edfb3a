package dev.idempotency.it.redis.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The Redis IT's JAX-RS application. */
@ApplicationPath("api")
public class RedisApp extends Application {}
