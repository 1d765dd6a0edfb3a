package dev.idempotency.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.PolicyResolver;
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
 * bean-managed EJB), whose work commits apart from its record.
 *
 * <p>The transaction annotations are read by name, so that a server without JTA or EJB still deploys.
 */
final class JoinedModeCheck {

    private static final Set<String> APART = Set.of("REQUIRES_NEW", "NOT_SUPPORTED", "NEVER");
    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final String TRANSACTION_ATTRIBUTE = "jakarta.ejb.TransactionAttribute";
    private static final String TRANSACTION_MANAGEMENT = "jakarta.ejb.TransactionManagement";

    private JoinedModeCheck() {}

    /**
     * @param method the guarded method
     * @param beanClass the bean class whose method it is
     * @param operation its operation name
     * @throws IdempotencyConfigurationException the method cannot run in the joined mode
     */
    static void check(Method method, Class<?> beanClass, String operation) {
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
            }
        }
        if (reason != null) {
            throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                    + " cannot use the joined transaction mode: " + reason + ". Set idempotency.jpa.transaction."
                    + operation + "=separate, or " + fix + ".");
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
