package dev.idempotency.it.app;

import dev.idempotency.internal.cdi.Shapes;
import jakarta.ejb.Singleton;

/**
 * The shape matrix's guarded methods ({@link Shapes}, guarded by its class-level {@code @Idempotent})
 * as a singleton EJB: one instance, so its run numbers count every execution.
 */
@Singleton
public class ShapesEjb extends Shapes {}
