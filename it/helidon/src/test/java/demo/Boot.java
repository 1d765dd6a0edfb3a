package demo;

import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.se.SeContainerInitializer;
import jakarta.enterprise.inject.spi.Extension;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Boots the app's Helidon container by hand (as @HelidonTest does), for tests that expect the boot to
 * fail. The config goes in as system properties: each test class has a JVM of its own (surefire
 * {@code reuseForks=false}).
 */
final class Boot {

    private Boot() {}

    /** The failure of a boot with this config and these extensions, or null if it started (and stopped). */
    static Throwable failure(Map<String, String> config, Extension... extensions) throws InterruptedException {
        Object outcome = start(config, extensions);
        if (outcome instanceof SeContainer started) {
            started.close();
            return null;
        }
        return (Throwable) outcome;
    }

    /** The started container (the caller closes it), or the boot's failure. */
    static Object start(Map<String, String> config, Extension... extensions) throws InterruptedException {
        // as @HelidonTest does: Helidon refuses SeContainerInitializer unless allowed
        System.setProperty("mp.initializer.allow", "true");
        System.setProperty("mp.initializer.no-warn", "true");
        config.forEach(System::setProperty);
        CompletableFuture<Object> boot = CompletableFuture.supplyAsync(() -> {
            try {
                return SeContainerInitializer.newInstance()
                        .addExtensions(extensions)
                        .initialize();
            } catch (Throwable e) {
                return e;
            }
        });
        try {
            return boot.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new AssertionError("the boot with " + config + " neither started nor failed within 60 s", e);
        }
    }

    /** The base URI of the started app's server (Helidon's ServerCdiExtension, read reflectively). */
    static URI base(SeContainer container) throws ReflectiveOperationException {
        @SuppressWarnings("unchecked")
        Class<Extension> server = (Class<Extension>) Class.forName("io.helidon.microprofile.server.ServerCdiExtension");
        Object extension = container.getBeanManager().getExtension(server);
        int port = (int) server.getMethod("port").invoke(extension);
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Every message of the chain, causes and suppressed, one a line. */
    static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        append(failure, all, 0);
        return all.toString();
    }

    private static void append(Throwable t, StringBuilder all, int depth) {
        if (t == null || depth > 20) {
            return;
        }
        all.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
        for (Throwable s : t.getSuppressed()) {
            append(s, all, depth + 1);
        }
        append(t.getCause(), all, depth + 1);
    }
}
