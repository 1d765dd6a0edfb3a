package dev.idempotency.ops.inspection;

/**
 * Inspection and repair over JMX, registered only with {@code
 * idempotency.inspection.jmx.repair.enabled=true}. The actor in the repair's log line is the JMX
 * caller's authenticated principal when the server's JMX connector authenticates, else {@code jmx}.
 */
public interface InspectionRepairMXBean extends InspectionMXBean {

    /** Releases a stuck IN_PROGRESS claim; returns the {@link RepairOutcome} name. */
    String releaseInProgress(String operation, String scope, String key);

    /** Deletes a COMPLETED record; returns the {@link RepairOutcome} name. */
    String deleteCompleted(String operation, String scope, String key);
}
