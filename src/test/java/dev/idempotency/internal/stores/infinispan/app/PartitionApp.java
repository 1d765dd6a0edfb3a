package dev.idempotency.internal.stores.infinispan.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The test application deployed on every Payara Micro node of {@code InfinispanPartitionIT}. */
@ApplicationPath("/api")
public class PartitionApp extends Application {}
