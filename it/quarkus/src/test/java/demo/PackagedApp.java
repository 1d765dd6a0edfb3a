package demo;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged app ({@code target/quarkus-app/quarkus-run.jar}) started as a process on 127.0.0.1, as a
 * user runs it. {@link #start} waits, bounded, until it either answers HTTP or exits; its output goes to a
 * log file that failures quote.
 */
final class PackagedApp implements AutoCloseable {

    /** How long startup may take before the test gives up (Quarkus starts in about a second). */
    static final Duration STARTUP = Duration.ofSeconds(90);

    private final Process process;
    private final Path log;
    private final URI base;
    private final Integer exitCode;
    /** The database schema of this start ({schema}), dropped when it stops; null if it has none. */
    private final String schema;

    private PackagedApp(Process process, Path log, URI base, Integer exitCode, String schema) {
        this.process = process;
        this.log = log;
        this.base = base;
        this.exitCode = exitCode;
        this.schema = schema;
    }

    /**
     * Starts {@code jar} on the first free port from {@code firstPort} and waits until it answers {@code
     * probePath} with 200 or exits.
     */
    static PackagedApp start(Path jar, Path log, int firstPort, String probePath) throws Exception {
        return start(jar, log, firstPort, probePath, List.of());
    }

    /** The same, with {@code properties} ({@code -Dkey=value}) on the app's command line. */
    static PackagedApp start(Path jar, Path log, int firstPort, String probePath, List<String> properties)
            throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no packaged app at " + jar + ": run `mvn verify` (package first)");
        }
        int port = freePort(firstPort);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(
                List.of(java.toString(), "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port));
        // The profile's options ({run}: a value of this start's own, such as a store's key prefix; {schema}: a
        // database schema of this start's own, created here in app.database and dropped when the app stops).
        String profile = System.getProperty("app.properties", "").trim();
        String schema = null;
        if (!profile.isEmpty()) {
            String run = Long.toString(System.currentTimeMillis(), 36) + "_" + port;
            if (profile.contains("{schema}")) {
                schema = "quarkus_it_" + run;
                database("CREATE SCHEMA " + schema);
            }
            for (String option : profile.split("\\s+")) {
                command.add(option.replace("{run}", run).replace("{schema}", String.valueOf(schema)));
            }
        }
        command.addAll(properties);
        command.addAll(List.of("-jar", jar.toString()));
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        HttpClient client = client();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        String lastProbe = "no probe yet";
        while (System.nanoTime() < deadline) {
            if (process.waitFor(250, TimeUnit.MILLISECONDS)) {
                return new PackagedApp(process, log, null, process.exitValue(), schema);
            }
            try {
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(base.resolve(probePath))
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return new PackagedApp(process, log, base, null, schema);
                }
                lastProbe = "GET " + probePath + " answered " + r.statusCode() + ": " + r.body();
            } catch (IOException e) {
                lastProbe = "GET " + probePath + ": " + e;
            }
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        if (schema != null) {
            database("DROP SCHEMA " + schema + " CASCADE");
        }
        throw new AssertionError("the app neither answered nor exited within " + STARTUP.toSeconds() + " s (last: "
                + lastProbe + "); its output:\n" + tail(log));
    }

    /** The packaged app of this build ({@code app.jar}). */
    static Path jar() {
        return Path.of(System.getProperty("app.jar", "target/quarkus-app/quarkus-run.jar"));
    }

    /** A file beside {@code app.log}: a test's log, or a directory of its own. */
    static Path log(String name) {
        return Path.of(System.getProperty("app.log", "target/it/app.log")).resolveSibling(name);
    }

    /** The first port a test class tries: {@code it.port} (24080) plus the class's own offset. */
    static int port(int offset) {
        return Integer.getInteger("it.port", 24080) + offset;
    }

    /**
     * Starts the packaged app for a test class: its output in {@code logName} beside {@code app.log}, on
     * the first free port from {@link #port port(offset)}, probed with {@code GET executions/orders/probe}.
     */
    static PackagedApp startFor(String logName, int offset) throws Exception {
        return start(jar(), log(logName), port(offset), "executions/orders/probe");
    }

    /** Skips the test (class) unless the profile's app properties select the store {@code store}. */
    static void assumeStore(String store, String why) {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getProperty("app.properties", "").contains("idempotency.store=" + store), why);
    }

    /** Whether the app is up and answering. */
    boolean started() {
        return base != null;
    }

    /** The exit code of an app that did not start. */
    int exitCode() {
        if (exitCode == null) {
            throw new IllegalStateException("the app is running");
        }
        return exitCode;
    }

    /** The app's root URI. */
    URI base() {
        if (base == null) {
            throw new IllegalStateException("the app exited with " + exitCode + "; its output:\n" + output());
        }
        return base;
    }

    /** Everything the app printed so far. */
    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path log() {
        return log;
    }

    /** The database schema of this start ({schema} in app.properties), or null. */
    String schema() {
        return schema;
    }

    /** A JSON POST to {@code path}, with the {@code Idempotency-Key} header unless {@code key} is null. */
    HttpRequest post(String path, String json, String key, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base().resolve(path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            b.header("Idempotency-Key", key);
        }
        return b.build();
    }

    /** How often the app ran the call {@code kind}/{@code ref}: its {@code GET /executions/kind/ref}. */
    int executions(HttpClient client, String kind, String ref, Duration timeout) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(base().resolve("executions/" + kind + "/" + ref))
                        .timeout(timeout)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError(
                    "GET /executions/" + kind + "/" + ref + " answered " + r.statusCode() + ": " + r.body());
        }
        return Integer.parseInt(r.body().trim());
    }

    static HttpClient client() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** The last lines of a log, for a failure message. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    static int freePort(int first) {
        for (int port = first; port < first + 100; port++) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return probe.getLocalPort();
            } catch (IOException taken) {
                // try the next one
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 in " + first + ".." + (first + 99)
                + ": set -Dit.port to another first port");
    }

    /** Runs {@code sql} in the database {@code app.database} names (a JDBC URL with its user). */
    private static void database(String sql) {
        String url = System.getProperty("app.database", "");
        if (url.isEmpty()) {
            throw new IllegalStateException("app.properties has {schema}, but app.database names no database");
        }
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.setQueryTimeout(30);
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("`" + sql + "` on " + url + " failed: " + e, e);
        }
    }

    /** Stops the app: asks first, then forces, each bounded; then drops its schema. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (schema != null && !process.isAlive()) {
            database("DROP SCHEMA " + schema + " CASCADE");
        }
    }
}
