package dev.idempotency.internal.ops;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;

/**
 * The operations keys, parsed once. An invalid value fails with {@link
 * IdempotencyConfigurationException} naming the key and the fix.
 *
 * @param metricsEnabled {@value #METRICS_ENABLED}
 * @param inspectionHttpEnabled {@value #INSPECTION_HTTP_ENABLED}
 * @param inspectionRole {@value #INSPECTION_ROLE}
 * @param inspectionJmxRepairEnabled {@value #INSPECTION_JMX_REPAIR_ENABLED}
 */
public record OpsSettings(
        boolean metricsEnabled,
        boolean inspectionHttpEnabled,
        String inspectionRole,
        boolean inspectionJmxRepairEnabled) {

    /** Whether guarded calls and store calls are counted and timed (and published). */
    public static final String METRICS_ENABLED = "idempotency.metrics.enabled";
    /** Whether the inspection REST resource answers; off by default. */
    public static final String INSPECTION_HTTP_ENABLED = "idempotency.inspection.http.enabled";
    /** The role a caller of the inspection REST resource needs. */
    public static final String INSPECTION_ROLE = "idempotency.inspection.http.role";
    /**
     * Whether the inspection MXBean offers the repairs ({@code releaseInProgress}, {@code
     * deleteCompleted}); off by default, as any JMX bridge could otherwise make a completed operation
     * run again. Its read-only operations are always there.
     */
    public static final String INSPECTION_JMX_REPAIR_ENABLED = "idempotency.inspection.jmx.repair.enabled";
    /** Default of {@link #INSPECTION_ROLE}. */
    public static final String DEFAULT_INSPECTION_ROLE = "idempotency-operator";

    /**
     * Reads the keys.
     *
     * @throws IdempotencyConfigurationException a value is invalid
     */
    public static OpsSettings from(ConfigLookup s) {
        return new OpsSettings(
                s.bool(METRICS_ENABLED, true),
                s.bool(INSPECTION_HTTP_ENABLED, false),
                s.text(INSPECTION_ROLE).orElse(DEFAULT_INSPECTION_ROLE),
                s.bool(INSPECTION_JMX_REPAIR_ENABLED, false));
    }
}
