package dev.idempotency.examples.shop;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The shop's REST API under {@code /api}. It registers nothing for idempotency: the library jar's
 * {@code DynamicFeature} guards every {@code @Idempotent} resource method by itself.
 */
@ApplicationPath("api")
public class ShopApplication extends Application {}
