package dev.idempotency.ops.it.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** A plain application: the library's features add the filter and the inspection resource. */
@ApplicationPath("api")
public class OpsApp extends Application {}
