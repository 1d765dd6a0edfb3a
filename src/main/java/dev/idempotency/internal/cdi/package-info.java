/**
 * Internal, no compatibility promise: the CDI glue. The extension finds and validates guarded methods
 * at deployment; the interceptors run the engine around CDI beans, EJB session beans, message
 * consumers and scheduled jobs; the runtime builds the store and the engine once per application.
 * Applications use the annotations of the API packages, never these types.
 */
package dev.idempotency.internal.cdi;
