package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.lock.ClusterLock;
import dev.idempotency.messaging.IdempotentConsumer;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.util.List;

/**
 * Validates the toolkit at deployment: the {@code idempotency.tokens.*}, {@code
 * idempotency.messages.*} and {@code idempotency.ids.*} keys, and every {@link ClusterLock} and
 * {@link IdempotentConsumer} method, so that a mistake fails the deployment with a message naming the
 * key or the method and the fix, not the first message or timer.
 */
public class ToolkitExtension implements Extension {

    private final ToolkitScan scan = new ToolkitScan();

    <T> void collect(
            @Observes @WithAnnotations({ClusterLock.class, IdempotentConsumer.class}) ProcessAnnotatedType<T> pat) {
        AnnotatedType<T> type = pat.getAnnotatedType();
        Class<T> cls = type.getJavaClass();
        for (AnnotatedMethod<? super T> m : type.getMethods()) {
            scan.collect(m.getJavaMember(), cls);
        }
    }

    void validate(@Observes AfterDeploymentValidation adv, BeanManager bm) {
        for (IdempotencyConfigurationException unguarded : java.util.Arrays.asList(
                InterceptorCheck.missing(
                        bm,
                        ClusterLockInterceptor.class.getAnnotation(ClusterLock.class),
                        List.of(ClusterLockInterceptor.class),
                        "@ClusterLock",
                        scan.locked()),
                InterceptorCheck.missing(
                        bm,
                        IdempotentConsumerInterceptor.class.getAnnotation(IdempotentConsumer.class),
                        List.of(IdempotentConsumerInterceptor.class),
                        "@IdempotentConsumer",
                        scan.consumers()))) {
            if (unguarded != null) {
                adv.addDeploymentProblem(unguarded);
            }
        }
        scan.validate(MicroProfileConfigLookup.current()).forEach(adv::addDeploymentProblem);
    }
}
