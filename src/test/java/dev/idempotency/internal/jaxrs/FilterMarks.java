package dev.idempotency.internal.jaxrs;

/** What the Idempotency-Key filter leaves for a request, for tests of the CDI interceptor outside JAX-RS. */
public final class FilterMarks {

    private FilterMarks() {}

    /** As the filter does for a request it lets through without a claim (e.g. no key sent). */
    public static void seen(FilteredRequest request) {
        request.filtered();
    }
}
