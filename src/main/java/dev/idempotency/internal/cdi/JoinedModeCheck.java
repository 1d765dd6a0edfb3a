package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.PolicyResolver;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Refuses, at deployment, a guarded method whose store writes its record in the caller's transaction
 * (the JPA store's {@code joined} mode) where the method's work cannot share that transaction: a
 * method returning a {@code CompletionStage} (it completes after the transaction ended, so its outcome
 * could never be written and the claim would stay until its lease ended), and a body that runs in a
 * transaction of its own or in none ({@code REQUIRES_NEW}, {@code NOT_SUPPORTED}, {@code NEVER}, a
 * bean-managed EJB), whose work commits apart from its record; and a CDI bean whose {@code
 * @Transactional} (REQUIRED, the default, or SUPPORTS) would begin its transaction, or run without one,
 * only after the guard ran at a priority below {@code @Transactional}'s (200), so that a call from
 * outside a transaction finds none for its record.
 *
 * <p>The transaction annotations are read by name, so that a server without JTA or EJB still deploys.
 */
final class JoinedModeCheck {

    private static final Set<String> APART = Set.of("REQUIRES_NEW", "NOT_SUPPORTED", "NEVER");
    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final String TRANSACTION_ATTRIBUTE = "jakarta.ejb.TransactionAttribute";
    private static final String TRANSACTION_MANAGEMENT = "jakarta.ejb.TransactionManagement";

    /** The priority of {@code @Transactional}'s interceptor (JTA: {@code PLATFORM_BEFORE + 200}). */
    static final int TRANSACTIONAL_PRIORITY = 200;

    /** The types whose transaction a caller without one does not get from {@code @Transactional} before the guard. */
    private static final Set<String> BEGUN_AFTER_THE_GUARD = Set.of("REQUIRED", "SUPPORTS");

    /** Session and message-driven beans: the EJB container begins their transaction before any interceptor. */
    private static final Set<String> EJB_COMPONENTS = Set.of(
            "jakarta.ejb.Stateless", "jakarta.ejb.Stateful", "jakarta.ejb.Singleton", "jakarta.ejb.MessageDriven");

    private JoinedModeCheck() {}

    /**
     * @param method the guarded method
     * @param beanClass the bean class whose method it is
     * @param operation its operation name
     * @param guardPriority the guard's interceptor priority ({@code idempotency.interceptor.priority})
     * @throws IdempotencyConfigurationException the method cannot run in the joined mode
     */
    static void check(Method method, Class<?> beanClass, String operation, int guardPriority) {
        String reason = null;
        String fix = null;
        if (CompletionStage.class.isAssignableFrom(method.getReturnType())) {
            reason = "it returns a " + method.getReturnType().getSimpleName() + ", which completes after the"
                    + " transaction its record is written in has ended, so its outcome could never be stored";
            fix = "make the method synchronous";
        } else {
            String apart = transactionApart(method, beanClass);
            if (apart != null) {
                reason = "its body runs " + apart + ", so its work commits apart from its record";
                fix = "let the body join the caller's transaction (REQUIRED, the default)";
            } else if (guardPriority < TRANSACTIONAL_PRIORITY && !isEjb(beanClass)) {
                Annotation tx = transactional(method, beanClass);
                if (tx != null && BEGUN_AFTER_THE_GUARD.contains(value(tx))) {
                    reason = "its @Transactional(" + value(tx) + ") "
                            + ("SUPPORTS".equals(value(tx))
                                    ? "runs it without a transaction"
                                    : "begins its transaction")
                            + " when the caller has none, after the guard (priority " + guardPriority
                            + ", before @Transactional's " + TRANSACTIONAL_PRIORITY
                            + ") needed one for the record";
                    fix = "set " + GlobalSettings.INTERCEPTOR_PRIORITY + " above " + TRANSACTIONAL_PRIORITY
                            + " (e.g. 1000) so that the guard runs inside @Transactional, or declare"
                            + " @Transactional(MANDATORY) if every caller brings its transaction";
                }
            }
        }
        if (reason != null) {
            throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                    + " (operation '" + operation + "') cannot use the joined transaction mode: " + reason
                    + ". Set " + PolicyResolver.howToSet(method, "transaction", Participation.SEPARATE) + ", or " + fix
                    + ".");
        }
    }

    /** The declaration that puts the body outside the caller's transaction, or {@code null}. */
    private static String transactionApart(Method method, Class<?> beanClass) {
        Annotation declared = transactionType(method.getAnnotations());
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Annotation a : c.getAnnotations()) {
                if (a.annotationType().getName().equals(TRANSACTION_MANAGEMENT) && "BEAN".equals(value(a))) {
                    return "bean-managed transactions (@TransactionManagement(BEAN))";
                }
            }
            if (declared == null) {
                declared = transactionType(c.getAnnotations());
            }
        }
        if (declared == null || !APART.contains(value(declared))) {
            return null;
        }
        return "@" + declared.annotationType().getSimpleName() + "(" + value(declared) + ")";
    }

    /** Whether the bean is an EJB (a container subclass of one included, as an interceptor may see it). */
    private static boolean isEjb(Class<?> beanClass) {
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Annotation a : c.getAnnotations()) {
                if (EJB_COMPONENTS.contains(a.annotationType().getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The method's {@code @Transactional}, or else the nearest class's in the hierarchy, or {@code null}. */
    private static Annotation transactional(Method method, Class<?> beanClass) {
        Annotation found = named(method.getAnnotations(), TRANSACTIONAL);
        for (Class<?> c = beanClass; found == null && c != null && c != Object.class; c = c.getSuperclass()) {
            found = named(c.getAnnotations(), TRANSACTIONAL);
        }
        return found;
    }

    private static Annotation named(Annotation[] annotations, String name) {
        for (Annotation a : annotations) {
            if (a.annotationType().getName().equals(name)) {
                return a;
            }
        }
        return null;
    }

    /** The {@code @Transactional} or {@code @TransactionAttribute} among the annotations, or {@code null}. */
    private static Annotation transactionType(Annotation[] annotations) {
        for (Annotation a : annotations) {
            String name = a.annotationType().getName();
            if (name.equals(TRANSACTIONAL) || name.equals(TRANSACTION_ATTRIBUTE)) {
                return a;
            }
        }
        return null;
    }

    private static String value(Annotation a) {
        try {
            return String.valueOf(a.annotationType().getMethod("value").invoke(a));
        } catch (ReflectiveOperationException e) {
            return "";
        }
    }
}
