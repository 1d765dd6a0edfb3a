package dev.idempotency.ops.inspection;

/**
 * Inspection over JMX: {@code dev.idempotency:type=Inspection,application=<app>}, read-only. The same
 * rules as {@link RecordInspector}. With {@code idempotency.inspection.jmx.repair.enabled=true} the
 * MBean is an {@link InspectionRepairMXBean} instead, which adds the repairs.
 */
public interface InspectionMXBean {

    /** The record of a key, as one line of text (never the outcome or the raw key), or {@code not found}. */
    String find(String operation, String scope, String key);

    /** The text key of a CDI or EJB method's call made with these key values (see {@link RecordInspector#methodKey}). */
    String methodKey(String[] keyValues);
}
