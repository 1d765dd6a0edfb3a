package dev.idempotency.cdi;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Lets an outer entry point (the JAX-RS filter) tell {@link IdempotentInterceptor} that it already
 * guards the method about to run on this thread, so a resource that is also a CDI bean is guarded once
 * per request, not twice. Only the first interception of that method is skipped: nested
 * {@code @Idempotent} beans the resource calls are still guarded.
 */
public final class OuterGuard {

    private static final ThreadLocal<Method> MARKED = new ThreadLocal<>();

    private OuterGuard() {}

    /** Marks the method that the caller guards (or deliberately leaves unguarded) on this thread. */
    public static void mark(Method method) {
        MARKED.set(method);
    }

    /** Removes any mark of this thread. */
    public static void clear() {
        MARKED.remove();
    }

    /**
     * Whether the interceptor must let this call through because an outer entry point owns it;
     * consumes the mark, so a second call of the same method is guarded normally.
     */
    static boolean claimedByOuter(Method method) {
        Method marked = MARKED.get();
        if (marked == null || !sameSignature(marked, method)) {
            return false;
        }
        MARKED.remove();
        return true;
    }

    private static boolean sameSignature(Method a, Method b) {
        // The outer entry point may see the method as declared on the resource class while the
        // interceptor sees the override (or the reverse), so compare by signature within one hierarchy.
        return a.getName().equals(b.getName())
                && Arrays.equals(a.getParameterTypes(), b.getParameterTypes())
                && (a.getDeclaringClass().isAssignableFrom(b.getDeclaringClass())
                        || b.getDeclaringClass().isAssignableFrom(a.getDeclaringClass()));
    }
}
