package dev.idempotency.internal.cdi;

import dev.idempotency.internal.jaxrs.FilteredRequest;
import java.util.Map;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.junit5.WeldInitiator;

/** Boots Weld with the module's CDI glue, the given beans and a given MicroProfile Config. */
final class WeldBoot {

    private WeldBoot() {}

    /** A Weld with the extension, interceptor and runtime, after installing the config. */
    static Weld weld(Map<String, String> config, Class<?>... beans) {
        TestConfig.use(config);
        return WeldInitiator.createWeld()
                .addExtension(new IdempotencyExtension())
                .addBeanClasses(
                        IdempotentInterceptor.class,
                        IdempotentWorkInterceptor.class,
                        IdempotencyRuntime.class,
                        FilteredRequest.class)
                .addBeanClasses(beans);
    }

    /** The same, for weld-junit5's @WeldSetup. */
    static WeldInitiator initiator(Map<String, String> config, Class<?>... beans) {
        return WeldInitiator.from(weld(config, beans)).build();
    }
}
