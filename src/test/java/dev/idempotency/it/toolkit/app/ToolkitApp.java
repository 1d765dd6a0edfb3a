package dev.idempotency.it.toolkit.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** A plain application: the library's features register the token filter and endpoint. */
@ApplicationPath("api")
public class ToolkitApp extends Application {}
