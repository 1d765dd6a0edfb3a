package dev.idempotency.it.http.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** A plain application: it registers nothing for idempotency; the library's DynamicFeature does. */
@ApplicationPath("api")
public class HttpApp extends Application {}
