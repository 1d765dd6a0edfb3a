/**
 * Inspection and repair of stored records, for operators: a CDI API ({@link
 * dev.idempotency.ops.inspection.RecordInspector}), the same as JMX operations, and an optional REST
 * resource (off by default, role-protected). Never returns a stored outcome or a raw key.
 * RecordInspector and its result types are API; the rest is internal.
 */
package dev.idempotency.ops.inspection;
