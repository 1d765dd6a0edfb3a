package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageId;
import dev.idempotency.messaging.MessageSettings;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deduplicates deliveries to {@link IdempotentConsumer} methods through {@link
 * dev.idempotency.messaging.MessageDeduplicator}.
 *
 * <p>Priority {@code PLATFORM_BEFORE + 95}: outside {@code @Transactional} (200), so a handler's own
 * transaction has committed or rolled back before its attempt is counted; inside a {@link
 * dev.idempotency.lock.ClusterLock} (90). When the caller's transaction (an MDB's) is active, a
 * success counts once it commits.
 */
@IdempotentConsumer(name = "")
@Interceptor
@Priority(IdempotentConsumerInterceptor.PRIORITY)
// Serializable: GlassFish's EJB container replaces a non-Serializable interceptor class of an EJB by
// a generated Serializable subclass, which CDI cannot create (no no-argument constructor: WELD-001530).
public class IdempotentConsumerInterceptor implements Serializable {

    /** The interceptor's priority. */
    public static final int PRIORITY = 95;

    private final ToolkitProducer toolkit;
    private final Settlement settlement;
    private final ConcurrentHashMap<Method, Plan> plans = new ConcurrentHashMap<>();

    /**
     * @param toolkit the application's toolkit services
     * @param runtime the application's runtime, which knows the JTA transactions
     */
    @Inject
    public IdempotentConsumerInterceptor(ToolkitProducer toolkit, IdempotencyRuntime runtime) {
        this.toolkit = toolkit;
        this.settlement = runtime.settlement();
    }

    /** Handles one delivery. */
    @AroundInvoke
    public Object deliver(InvocationContext ic) throws Exception {
        Plan plan = plans.computeIfAbsent(
                ic.getMethod(),
                m -> Plan.of(m, targetClass(ic), toolkit.messages().settings()));
        Object id = ic.getParameters()[plan.idIndex];
        if (id == null || id.toString().isBlank()) {
            throw new IdempotencyKeyMissingException(
                    plan.consumer,
                    "the @MessageId parameter of " + plan.where + " is " + (id == null ? "null" : "blank")
                            + "; a message without an id cannot be deduplicated; have the producer set one");
        }
        toolkit.messages().handle(plan.consumer, id.toString(), plan.maxAttempts, settlement, ic::proceed);
        return null;
    }

    private static Class<?> targetClass(InvocationContext ic) {
        Object t = ic.getTarget();
        return t == null ? ic.getMethod().getDeclaringClass() : t.getClass();
    }

    /** A handler method's resolved consumer name, attempt limit and id parameter. */
    record Plan(String consumer, int maxAttempts, int idIndex, String where) {

        static Plan of(Method method, Class<?> targetClass, MessageSettings settings) {
            IdempotentConsumer a = annotation(method, targetClass);
            String where = method.getDeclaringClass().getName() + "#" + method.getName();
            if (a == null || a.name().isBlank()) {
                throw new IdempotencyConfigurationException("@IdempotentConsumer on " + where
                        + " needs a name, the same on every node, such as @IdempotentConsumer(name = \"billing\").");
            }
            if (method.getReturnType() != void.class) {
                throw new IdempotencyConfigurationException("@IdempotentConsumer method " + where + " returns "
                        + method.getReturnType().getSimpleName()
                        + "; message handlers must return void, because a skipped duplicate has no result.");
            }
            int index = -1;
            Annotation[][] params = method.getParameterAnnotations();
            for (int i = 0; i < params.length; i++) {
                for (Annotation p : params[i]) {
                    if (p.annotationType() == MessageId.class) {
                        if (index >= 0) {
                            throw new IdempotencyConfigurationException("@IdempotentConsumer method " + where
                                    + " has more than one @MessageId parameter; mark exactly one.");
                        }
                        index = i;
                    }
                }
            }
            if (index < 0) {
                throw new IdempotencyConfigurationException("@IdempotentConsumer method " + where
                        + " has no @MessageId parameter; mark the parameter that holds the message id.");
            }
            int max = a.maxAttempts() == 0
                    ? settings.maxAttempts()
                    : MessageSettings.checkAttempts("@IdempotentConsumer(maxAttempts) on " + where, a.maxAttempts());
            return new Plan(a.name().trim(), max, index, where);
        }

        static IdempotentConsumer annotation(Method method, Class<?> targetClass) {
            IdempotentConsumer a = method.getAnnotation(IdempotentConsumer.class);
            if (a == null && targetClass != null) {
                a = targetClass.getAnnotation(IdempotentConsumer.class);
            }
            if (a == null) {
                a = method.getDeclaringClass().getAnnotation(IdempotentConsumer.class);
            }
            return a;
        }
    }
}
