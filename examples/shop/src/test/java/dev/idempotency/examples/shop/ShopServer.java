package dev.idempotency.examples.shop;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the demo as a user does: {@code java -jar payara-micro.jar --nocluster --port P --deploy
 * shop.war}, with the WAR Maven just built. One server for the whole test run: it is started by the
 * first test class that needs it and stopped when JUnit closes its root context (and by a shutdown
 * hook if the JVM dies first). Its log is {@code target/shop-payara-<variant>.log}.
 *
 * <p>Variants (system property {@code shop.variant}): {@code h2-memory}, the demo as shipped; {@code
 * wildfly-memory}, the same on WildFly ({@code run.sh --server wildfly}); {@code postgres-jpa}, as {@code run.sh --postgres --store jpa} runs it: the server's default data source
 * on PostgreSQL (database {@code test}, schema {@value #SCHEMA}, recreated empty) and {@code
 * -Didempotency.store=jpa}.
 */
public final class ShopServer implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {

    /** The demo tests' own ports, apart from those of the library's tests. */
    static final int FIRST_PORT = 8200;

    static final int LAST_PORT = 8219;

    private static final Duration STARTUP = Duration.ofSeconds(240);

    /** The PostgreSQL variant's own schema, so that it never meets the library tests' tables. */
    static final String SCHEMA = "shop_demo_it";

    /** Where the PostgreSQL variant's schema lives (trust authentication, as on the CI machine). */
    static final String PG_URL = "jdbc:postgresql://127.0.0.1:5432/test";

    private static volatile ShopServer running;

    private Process process;
    private URI base;
    private Path log;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (ShopServer.class) {
            if (running == null) {
                ShopServer server = new ShopServer();
                server.start();
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(ShopServer.class, server);
                running = server;
            }
        }
    }

    /**
     * The application's base URI, always on 127.0.0.1.
     *
     * @return e.g. {@code http://127.0.0.1:8200/shop/}
     */
    public static URI base() {
        return running().base;
    }

    /**
     * The variant the server runs.
     *
     * @return {@code h2-memory} or {@code postgres-jpa}
     */
    public static String variant() {
        return System.getProperty("shop.variant", "h2-memory");
    }

    private static ShopServer running() {
        if (running == null) {
            throw new IllegalStateException(
                    "ShopServer not started: annotate the test class with" + " @ExtendWith(ShopServer.class)");
        }
        return running;
    }

    private void start() throws Exception {
        Path target = Path.of(System.getProperty("shop.logDir", "target"));
        int port = freePort();
        base = URI.create("http://127.0.0.1:" + port + "/shop/");
        if (variant().equals("wildfly-memory")) {
            startWildFly(target, port);
            return;
        }
        Path war = Path.of(required("shop.war"));
        Path jar = Path.of(required("payara.microJar"));
        Path root = target.resolve("payara-root-" + variant());
        deleteTree(root);
        log = target.resolve("shop-payara-" + variant() + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // A one-second settlement timer, so that SettlementJobIT sees several lock windows quickly.
        List<String> command = new ArrayList<>(List.of(
                java, "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dshop.settlement.interval=PT1S"));
        List<String> payara = new ArrayList<>(List.of(
                "--nocluster",
                "--rootdir",
                root.toString(),
                "--port",
                String.valueOf(port),
                "--deploy",
                war.toString()));
        switch (variant()) {
            case "h2-memory" -> {}
            case "postgres-jpa" -> {
                recreateSchema();
                Path boot = target.resolve("postgres-jpa-postboot.asadmin");
                // The same two commands run.sh --postgres writes.
                Files.writeString(
                        boot,
                        "create-jdbc-connection-pool --datasourceclassname=org.postgresql.ds.PGSimpleDataSource"
                                + " --restype=javax.sql.DataSource --property user=postgres:password=postgres"
                                + ":serverName=127.0.0.1:portNumber=5432:databaseName=test:currentSchema=" + SCHEMA
                                + " shop-postgres\n"
                                + "set resources.jdbc-resource.jdbc/__default.pool-name=shop-postgres\n");
                command.add("-Didempotency.store=jpa");
                payara.addAll(
                        List.of("--addlibs", required("shop.postgresJar"), "--postbootcommandfile", boot.toString()));
            }
            default -> throw new IllegalStateException("unknown shop.variant " + variant());
        }
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(payara);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "stop-payara-micro"));
        awaitReady();
    }

    /**
     * The {@code wildfly-memory} variant: the demo as {@code run.sh --server wildfly} runs it, through
     * the same script (examples/shop/wildfly.sh), on the WildFly the build unpacked into target/.
     */
    private void startWildFly(Path target, int port) throws Exception {
        log = target.resolve("shop-wildfly-memory.log");
        ProcessBuilder builder =
                new ProcessBuilder("bash", required("shop.wildflyScript"), target.toString(), String.valueOf(port));
        // A one-second settlement timer, so that SettlementJobIT sees several lock windows quickly.
        builder.environment().put("JAVA_OPTS", "-XX:+UseSerialGC -Dshop.settlement.interval=PT1S");
        process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "stop-wildfly"));
        awaitReady();
    }

    /** Polls the API (bounded) until it answers 200; fails fast if the server process exits. */
    private void awaitReady() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Payara Micro exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<Void> r = client.send(
                        HttpRequest.newBuilder(base.resolve("api/orders"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            Thread.sleep(500);
        }
        stop();
        throw new IllegalStateException("the demo did not answer within " + STARTUP + "; see " + log);
    }

    /** Drops and recreates the variant's schema: every run starts from empty tables. */
    private static void recreateSchema() throws Exception {
        try (Connection c = DriverManager.getConnection(PG_URL, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
        }
    }

    private static int freePort() throws IOException {
        for (int port = FIRST_PORT; port <= LAST_PORT; port++) {
            // Payara listens on every interface: the port must be free on all of them.
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
                s.setReuseAddress(true);
                return port;
            } catch (IOException taken) {
                // Try the next one.
            }
        }
        throw new IllegalStateException("no free port in " + FIRST_PORT + "-" + LAST_PORT);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(
                    "system property " + property + " is not set: run the tests with mvn verify in examples/shop");
        }
        return value;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        running = null;
    }
}
