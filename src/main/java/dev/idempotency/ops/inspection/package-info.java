/**
 * API: {@link dev.idempotency.ops.inspection.RecordInspector} and its result types; the rest is
 * internal, with no compatibility promise. Inspection and repair of stored records, for operators: a
 * CDI API, the same as JMX operations, and an optional REST resource (off by default,
 * role-protected). Never returns a stored outcome or a raw key.
 */
package dev.idempotency.ops.inspection;
