package dev.idempotency;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method at most once per idempotency key; repeats get the stored outcome.
 *
 * <p>The key is built from the method's {@link IdempotencyKey} values, in their {@code order}. A
 * method without any {@code @IdempotencyKey} is keyed by a SHA-256 fingerprint of all its arguments.
 * Keys are namespaced by {@link #name()}, so two operations never share records.
 *
 * <p>When the method is called, the first applicable rule decides:
 *
 * <ol>
 *   <li>If a key value is {@code null} or blank, the call is unkeyed: it fails with {@link
 *       IdempotencyKeyMissingException} when {@link #required()} is set, and otherwise runs
 *       unguarded.
 *   <li>If no live record exists for the key, this call claims the key (state IN_PROGRESS, for at
 *       most {@link #lease()}), runs the method and stores its outcome for {@link #ttl()}.
 *   <li>If the stored record was made from different arguments (its fingerprint differs), the call
 *       fails with {@link IdempotencyKeyMismatchException}; the method does not run.
 *   <li>If the record is COMPLETED, the stored outcome is replayed: the same return value, or the
 *       same kept exception; the method does not run.
 *   <li>If the record is IN_PROGRESS and its lease has ended (the first caller crashed or hung), this
 *       call takes the key over and runs the method.
 *   <li>Otherwise the first call is still running: with {@link InProgressPolicy#REJECT} the call
 *       fails at once with {@link IdempotencyInProgressException}, whose {@code retryAfter()} is the
 *       short hint {@code idempotency.retry-after} (never more than the remaining lease); with {@link
 *       InProgressPolicy#WAIT} it waits up to the lease for the first call's outcome and replays it,
 *       and fails with {@code IdempotencyInProgressException} if none comes.
 * </ol>
 *
 * <p>When the method throws, the first matching rule decides whether the exception is <em>kept</em>
 * (stored and rethrown to every repeat) or <em>releases</em> the key (nothing is stored; a retry runs
 * the method again). The original exception is always rethrown to the caller.
 *
 * <ol>
 *   <li>If it is assignable to a type in {@link #keepOn()}, it is kept.
 *   <li>Otherwise, if it is assignable to a type in {@link #releaseOn()}, it releases the key.
 *   <li>Otherwise, unchecked exceptions ({@link RuntimeException}) and {@link Error}s release the
 *       key, and checked exceptions are kept.
 * </ol>
 *
 * <p>A timeout ({@code java.util.concurrent.TimeoutException} or MicroProfile Fault Tolerance's, also
 * wrapped in {@code CompletionException} or {@code ExecutionException}) that no {@link #keepOn()} or
 * {@link #releaseOn()} type matches neither is kept nor releases the key: the work may still run, so
 * the claim is held until its {@link #lease()} ends.
 *
 * <p>The outcome follows the transaction the method's own work ran in, whatever the interceptor
 * priority: the first rule that applies decides.
 *
 * <ol>
 *   <li>If the store writes its records in the caller's transaction (the JPA store's {@code joined}
 *       mode), the outcome is written there when the method returns, and commits or rolls back with it.
 *   <li>Otherwise, if the work ran in a transaction (the caller's, joined by {@code REQUIRED}, {@code
 *       SUPPORTS}, {@code MANDATORY} or no {@code @Transactional}; or its own, begun by {@code
 *       REQUIRED} or {@code REQUIRES_NEW}; EJB transaction attributes alike), the outcome is stored
 *       when that transaction commits and the key is released when it rolls back. An exception that
 *       would release the key is then kept if that transaction commits anyway ({@code dontRollbackOn},
 *       an application exception with {@code rollback = false}): the method's work committed.
 *   <li>Otherwise (no transaction: {@code NOT_SUPPORTED}, {@code NEVER}, bean-managed EJBs, no
 *       transaction at all), the outcome is stored when the method returns.
 * </ol>
 *
 * <p>A method returning {@code CompletionStage<T>} or {@code CompletableFuture<T>} holds its claim
 * until the returned stage completes, then settles the stage's value or exception by the same rules;
 * repeats get a completed or failed stage, and the guard's refusals fail the returned stage. Other
 * asynchronous return types ({@code Future}, reactive streams) fail the deployment.
 *
 * <p>Every member can be overridden by MicroProfile Config, most specific first: {@code
 * <class>/<method>/Idempotent/<member>}, then {@code <class>/Idempotent/<member>}, then {@code
 * Idempotent/<member>}, then the annotation value. {@code <class>} is the fully qualified name of
 * the type that declares the method that runs (the implementation, also when this annotation is on
 * an interface or superclass method). {@link #ttl()} and {@link #lease()} left empty fall back to
 * {@code idempotency.ttl} and {@code idempotency.lease}.
 *
 * <p>It may be declared on the method, on a superclass method it overrides, on an interface method it
 * implements (abstract or default), or on a type; the nearest method declaration wins, whole, then
 * the class's, then an interface's. Two interfaces declaring it differently fail the deployment.
 *
 * <p>On a JAX-RS resource the key comes from the {@code Idempotency-Key} request header instead; see
 * docs/http.md for the HTTP rules.
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {

    /**
     * A stable operation name that namespaces the keys, so records survive renaming the class or
     * method. Any non-blank text. On a class it is a prefix: each method's operation is {@code
     * <name>.<methodName>}, or {@code <name>.<methodName>(<parameter types>)} for an overloaded
     * method, so methods never share records. Default: derived from the declaring class,
     * the method name and its parameter types, e.g. {@code com.example.Orders#place(String,Order)}.
     */
    @Nonbinding
    String name() default "";

    /**
     * How long a completed outcome is kept and replayed, as an ISO-8601 duration ({@code PT24H},
     * {@code P7D}); must be positive. Default: empty, meaning {@code idempotency.ttl} (itself {@code
     * PT24H} by default).
     */
    @Nonbinding
    String ttl() default "";

    /**
     * How long an in-progress claim is honoured before another caller may take the key over, as an
     * ISO-8601 duration; must be positive. A running call renews its claim every third of its lease
     * (the keep-alive, {@code idempotency.keep-alive.*}), so the lease bounds how long a crashed
     * caller's key stays blocked, not how long a call may run; a call that timed out, or runs in the
     * joined transaction mode, is not renewed. Default: empty, meaning {@code idempotency.lease}
     * (itself {@code PT1M} by default).
     */
    @Nonbinding
    String lease() default "";

    /** What a call does while another call with the same key is running. Default: {@code REJECT}. */
    @Nonbinding
    InProgressPolicy onInProgress() default InProgressPolicy.REJECT;

    /**
     * Exception types that release the key (nothing stored; a retry runs again), with their
     * subclasses. Default: none beyond the rule that unchecked exceptions release.
     */
    @Nonbinding
    Class<? extends Throwable>[] releaseOn() default {};

    /**
     * Exception types that are stored and rethrown on every replay, with their subclasses; takes
     * precedence over {@link #releaseOn()}. Default: none beyond the rule that checked exceptions are
     * kept.
     */
    @Nonbinding
    Class<? extends Throwable>[] keepOn() default {};

    /**
     * Whether a call without a key fails with {@link IdempotencyKeyMissingException} (true) or runs
     * unguarded (false). Default: {@code false}.
     */
    @Nonbinding
    boolean required() default false;

    /**
     * Whether the record is written in the caller's transaction ({@link Participation#JOINED}) or
     * outside it ({@link Participation#SEPARATE}). In config: {@code separate} or {@code joined}.
     * Default: {@code SEPARATE}.
     */
    @Nonbinding
    Participation transaction() default Participation.SEPARATE;
}
