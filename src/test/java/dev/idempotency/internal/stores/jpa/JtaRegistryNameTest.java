package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.spi.ConfigLookup;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The joined mode looks the JTA registry up where {@code idempotency.transaction-registry} says, as the
 * guard's own settlement does; a JNDI with one name bound stands in for a server that binds it elsewhere.
 */
class JtaRegistryNameTest {

    private static final String ELSEWHERE = "java:global/custom/TransactionSynchronizationRegistry";
    static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    /** A JNDI that knows only {@link #BOUND}. */
    public static final class Jndi implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(
                    Jndi.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                        if (method.getName().equals("lookup") && args[0] instanceof String name) {
                            Object o = BOUND.get(name);
                            if (o == null) {
                                throw new NameNotFoundException(name);
                            }
                            return o;
                        }
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    private String previous;

    @BeforeEach
    void bind() {
        previous = System.getProperty(Context.INITIAL_CONTEXT_FACTORY);
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, Jndi.class.getName());
        BOUND.put(
                ELSEWHERE,
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {TransactionSynchronizationRegistry.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("getTransactionStatus")) {
                                return Status.STATUS_NO_TRANSACTION;
                            }
                            throw new UnsupportedOperationException(method.getName());
                        }));
    }

    @AfterEach
    void unbind() {
        BOUND.clear();
        if (previous == null) {
            System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        } else {
            System.setProperty(Context.INITIAL_CONTEXT_FACTORY, previous);
        }
    }

    private static JtaConnections connections(Map<String, String> config) {
        return new JtaConnections(null, new JtaTransactionRunner(), JoinedMode.registryName(ConfigLookup.of(config)));
    }

    @Test
    void theConfiguredNameIsTheOneLookedUp() {
        // Found at the configured name: the registry answers, and no transaction is active.
        assertThatThrownBy(() -> connections(Map.of(GlobalSettings.TRANSACTION_REGISTRY, ELSEWHERE))
                        .joined(c -> 1, "orders"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("no JTA transaction is active")
                .hasMessageContaining("status " + Status.STATUS_NO_TRANSACTION);
    }

    @Test
    void aRegistryNotFoundIsAnErrorNamingTheNameAndBothKeys() {
        assertThatThrownBy(() -> connections(Map.of()).joined(c -> 1, "orders"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(GlobalSettings.DEFAULT_TRANSACTION_REGISTRY)
                .hasMessageContaining(GlobalSettings.TRANSACTION_REGISTRY)
                .hasMessageContaining("transaction to separate");
    }
}
