package dev.idempotency.internal.cdi;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.OperationNotSupportedException;
import javax.naming.spi.InitialContextFactory;

/**
 * A JNDI provider for tests that need a server's naming without a server: {@link #bind} what a
 * lookup finds, then install it with {@code java.naming.factory.initial}. It is the only way to make
 * a registry lookup fail the way a misconfigured server does.
 */
public final class StubNaming implements InitialContextFactory {

    private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    /** Runs {@code test} with a JNDI that finds exactly {@code bindings}, then removes it. */
    static void with(Map<String, Object> bindings, Runnable test) {
        BOUND.clear();
        BOUND.putAll(bindings);
        String previous = System.setProperty(Context.INITIAL_CONTEXT_FACTORY, StubNaming.class.getName());
        try {
            test.run();
        } finally {
            if (previous == null) {
                System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
            } else {
                System.setProperty(Context.INITIAL_CONTEXT_FACTORY, previous);
            }
            BOUND.clear();
        }
    }

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context) Proxy.newProxyInstance(
                StubNaming.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "lookup" -> {
                            String name = String.valueOf(args[0]);
                            Object found = BOUND.get(name);
                            if (found == null) {
                                throw new NameNotFoundException(name + " is not bound");
                            }
                            return found;
                        }
                        case "close" -> {
                            return null;
                        }
                        case "getEnvironment" -> {
                            return new Hashtable<>();
                        }
                        default -> throw new OperationNotSupportedException(method.getName());
                    }
                });
    }
}
