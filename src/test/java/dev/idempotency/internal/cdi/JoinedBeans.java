package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Beans whose guarded methods cannot share the caller's transaction with their record, and one that can. */
final class JoinedBeans {

    private JoinedBeans() {}

    @ApplicationScoped
    public static class Stage {
        @Idempotent(name = "joined.stage")
        public CompletionStage<String> later(@IdempotencyKey String id) {
            return new CompletableFuture<>();
        }
    }

    @ApplicationScoped
    public static class RequiresNew {
        @Idempotent(name = "joined.requires-new")
        @Transactional(Transactional.TxType.REQUIRES_NEW)
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    @ApplicationScoped
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public static class NotSupported {
        @Idempotent(name = "joined.not-supported")
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    @ApplicationScoped
    @TransactionManagement(TransactionManagementType.BEAN)
    public static class BeanManaged {
        @Idempotent(name = "joined.bean-managed")
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    /** The method-level type wins over the class's: MANDATORY, every caller brings its transaction. */
    @ApplicationScoped
    @Transactional(Transactional.TxType.NEVER)
    public static class Mandatory {
        @Idempotent(name = "joined.mandatory")
        @Transactional(Transactional.TxType.MANDATORY)
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    /** REQUIRED (the default type) begins the transaction after a guard at the default priority. */
    @ApplicationScoped
    public static class Required {
        @Idempotent(name = "joined.required")
        @Transactional
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    /** SUPPORTS, from the class: without a caller's transaction the body runs in none. */
    @ApplicationScoped
    @Transactional(Transactional.TxType.SUPPORTS)
    public static class Supports {
        @Idempotent(name = "joined.supports")
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }

    /** An EJB: its container begins the transaction before every interceptor, so REQUIRED is fine. */
    @jakarta.ejb.Stateless
    public static class RequiredEjb {
        @Idempotent(name = "joined.required-ejb")
        @TransactionAttribute(TransactionAttributeType.REQUIRED)
        public String charge(@IdempotencyKey String id) {
            return id;
        }
    }
}
