package dev.idempotency.ops.inspection;

/**
 * Inspection and repair over JMX: {@code dev.idempotency:type=Inspection,application=<app>}. The same
 * rules as {@link RecordInspector}; the actor in the log line is the JMX caller's authenticated
 * principal when the server's JMX connector authenticates, else {@code jmx}.
 */
public interface InspectionMXBean {

    /** The record of a key, as one line of text (never the outcome or the raw key), or {@code not found}. */
    String find(String operation, String scope, String key);

    /** Releases a stuck IN_PROGRESS claim; returns the {@link RepairOutcome} name. */
    String releaseInProgress(String operation, String scope, String key);

    /** Deletes a COMPLETED record; returns the {@link RepairOutcome} name. */
    String deleteCompleted(String operation, String scope, String key);

    /** The text key of a CDI or EJB method's call made with these key values (see {@link RecordInspector#methodKey}). */
    String methodKey(String[] keyValues);
}
