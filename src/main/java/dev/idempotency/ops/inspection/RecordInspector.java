package dev.idempotency.ops.inspection;

import dev.idempotency.internal.core.EntryPointServices;
import dev.idempotency.internal.core.IdempotencyObserver;
import dev.idempotency.internal.core.KeyReader;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.ops.metrics.IdempotencyMetrics;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordStatus;
import dev.idempotency.spi.StorePrimitive;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Finds and repairs the record of one key, for operators' code (the JMX operations and the REST
 * resource use it too). A record is addressed as the guard addresses it: operation name, caller scope
 * and the client's key.
 *
 * <ul>
 *   <li>operation: the {@code @Idempotent} name, or for a resource method without one {@code "<HTTP
 *       method> <route>"} such as {@code POST /orders};
 *   <li>scope: {@code ""} for CDI and EJB methods and for HTTP with {@code idempotency.http.scope=none};
 *       {@code principal:<name>} or {@code anonymous} with the default {@code principal} scope;
 *       {@code header:<value>} with {@code header:<Name>};
 *   <li>key: the {@code Idempotency-Key} value (without sf-string quotes) for HTTP; for a method, the
 *       text {@link #methodKey} makes of its {@code @IdempotencyKey} values.
 * </ul>
 *
 * <p>The repairs go through the store's fenced primitives with the owner token read from the record,
 * so a record that changed in between is left alone ({@link RepairOutcome#CHANGED}). Each repair is
 * logged at INFO with the actor and the key's hash. Releasing a claim whose call is in fact still
 * running lets the next call run the operation a second time: release only claims whose call you know
 * to be dead (a crashed node, a killed thread). Views never contain the stored outcome or the raw key.
 */
@ApplicationScoped
public class RecordInspector {

    private static final System.Logger LOG = System.getLogger(RecordInspector.class.getName());

    @Inject
    EntryPointServices runtime;

    @Inject
    Instance<IdempotencyMetrics> metrics;

    /**
     * The key text of a CDI or EJB method's call: its {@code @IdempotencyKey} values in {@code order},
     * as the interceptor reads them.
     */
    public static String methodKey(Object... keyValues) {
        return KeyReader.text(keyValues);
    }

    /**
     * The key text of a call of {@code method} with these arguments, exactly as the interceptor reads
     * it: each {@code @IdempotencyKey} value with its parameter's declared type, so a value whose class
     * is not the declared one (an interface-typed parameter) is addressed as the call addressed it,
     * which {@link #methodKey(Object...)} cannot know.
     *
     * @param method the guarded method (as declared on the bean class or its interface)
     * @param arguments all of the call's arguments, in parameter order
     * @throws IllegalArgumentException the method declares no key value, or one of them is missing
     */
    public static String methodKey(Method method, Object... arguments) {
        KeyReader reader = KeyReader.of(method);
        if (!reader.hasKeys()) {
            throw new IllegalArgumentException(method + " declares no @IdempotencyKey: its key is its arguments'"
                    + " fingerprint, which the inspection API does not address");
        }
        if (arguments.length != method.getParameterCount()) {
            throw new IllegalArgumentException(
                    method + " takes " + method.getParameterCount() + " arguments, not " + arguments.length);
        }
        String text = reader.read(arguments);
        if (text == null) {
            throw new IllegalArgumentException(reader.describeMissing(arguments));
        }
        return text;
    }

    /**
     * The live record of a key.
     *
     * @return the record's view, or empty when no live record has the key
     */
    public Optional<RecordView> find(String operation, String scope, String key) {
        RecordKey k = key(operation, scope, key);
        return read(k).map(r -> RecordView.of(operation, r));
    }

    /**
     * Releases a stuck IN_PROGRESS claim, so that the next call runs: with the owner's fenced release,
     * using the owner token read from the record.
     *
     * @param actor who asks (a user name), for the log line
     */
    public RepairOutcome releaseInProgress(String operation, String scope, String key, String actor) {
        RecordKey k = key(operation, scope, key);
        Optional<IdempotencyRecord> found = read(k);
        if (found.isEmpty()) {
            return logged(RepairOutcome.NOT_FOUND, "release", k, actor);
        }
        IdempotencyRecord r = found.get();
        if (r.status() != RecordStatus.IN_PROGRESS) {
            return logged(RepairOutcome.WRONG_STATE, "release", k, actor);
        }
        boolean released = timed(StorePrimitive.RELEASE, () -> store().release(k.storeKey(), r.owner()));
        if (released && metrics.isResolvable()) {
            // Only operations the application planned have counters: an operator's typo adds no tag value.
            metrics.get()
                    .find(operation)
                    .ifPresent(m -> metrics.get().operation(operation).released(ReleaseCause.OPERATOR));
        }
        return logged(released ? RepairOutcome.DONE : RepairOutcome.CHANGED, "release", k, actor);
    }

    /**
     * Deletes a COMPLETED record, so that the next call with the key runs again instead of replaying:
     * with the store's fenced delete, using the owner token read from the record.
     *
     * @param actor who asks (a user name), for the log line
     */
    public RepairOutcome deleteCompleted(String operation, String scope, String key, String actor) {
        RecordKey k = key(operation, scope, key);
        Optional<IdempotencyRecord> found = read(k);
        if (found.isEmpty()) {
            return logged(RepairOutcome.NOT_FOUND, "delete", k, actor);
        }
        IdempotencyRecord r = found.get();
        if (r.status() != RecordStatus.COMPLETED) {
            return logged(RepairOutcome.WRONG_STATE, "delete", k, actor);
        }
        boolean deleted;
        try {
            deleted = timed(StorePrimitive.DELETE, () -> store().deleteCompleted(k.storeKey(), r.owner()));
        } catch (UnsupportedOperationException e) {
            return logged(RepairOutcome.UNSUPPORTED, "delete", k, actor);
        }
        return logged(deleted ? RepairOutcome.DONE : RepairOutcome.CHANGED, "delete", k, actor);
    }

    private RecordKey key(String operation, String scope, String key) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
        return runtime.engine().key(operation, scope, key);
    }

    private Optional<IdempotencyRecord> read(RecordKey k) {
        return timed(StorePrimitive.READ, () -> store().read(k.storeKey()));
    }

    private IdempotencyStore store() {
        return runtime.engine().store();
    }

    /** Runs a store call, reporting its latency to the engine's observer (the metrics). */
    private <T> T timed(StorePrimitive primitive, Supplier<T> call) {
        IdempotencyObserver observer = runtime.engine().observer();
        long started = System.nanoTime();
        boolean failed = true;
        try {
            T result = call.get();
            failed = false;
            return result;
        } finally {
            if (observer.timesStoreCalls()) {
                observer.storeCall(primitive, System.nanoTime() - started, failed);
            }
        }
    }

    private static RepairOutcome logged(RepairOutcome outcome, String repair, RecordKey k, String actor) {
        LOG.log(
                Level.INFO,
                "idempotency repair by {0}: {1} of {2}: {3}",
                actor == null || actor.isBlank() ? "(unnamed)" : actor,
                repair,
                k,
                outcome);
        return outcome;
    }
}
