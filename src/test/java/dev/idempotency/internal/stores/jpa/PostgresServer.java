package dev.idempotency.internal.stores.jpa;

import dev.idempotency.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of a test's own, on a loopback port, from the machine's PostgreSQL binaries: one a
 * test may stop ({@code immediate}, as a crash) and start again, which the machine's service must not
 * be. Its data directory is under {@code /tmp} (owned by the {@code postgres} user when the tests run
 * as root, since PostgreSQL refuses to run as root); it holds the tests' database {@link
 * TestServices#PG_DATABASE}, with trust authentication. Stopped at JVM exit.
 */
public final class PostgresServer {

    private final int port;
    private final Path dir;
    private final boolean root = "root".equals(System.getProperty("user.name"));

    /** Creates (or reuses) the server's data directory and starts it. */
    public static PostgresServer start(int port) {
        PostgresServer s = new PostgresServer(port);
        s.init();
        s.start();
        Runtime.getRuntime().addShutdownHook(new Thread(s::stopQuietly));
        return s;
    }

    private PostgresServer(int port) {
        this.port = port;
        this.dir = Path.of("/tmp", "idempotency-pg-" + port);
    }

    public int port() {
        return port;
    }

    /** Stops the server at once, without a checkpoint (its clients' connections are cut, as in a crash). */
    public void stopImmediately() {
        run(60, pgCtl("-m", "immediate", "stop"));
    }

    /** Starts the server (after a crash stop, it recovers from its WAL first) and waits until it accepts. */
    public void start() {
        run(
                60,
                pgCtl(
                        "-w",
                        "-t",
                        "60",
                        "-l",
                        dir.resolve("server.log").toString(),
                        "-o",
                        "-p " + port + " -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200",
                        "start"));
    }

    private void stopQuietly() {
        try {
            stopImmediately();
        } catch (RuntimeException e) {
            // not running
        }
    }

    private void init() {
        if (Files.exists(dir.resolve("data").resolve("PG_VERSION"))) {
            stopQuietly(); // left running by an earlier run that was killed
        } else {
            try {
                Files.createDirectories(dir);
                if (root) {
                    run(30, List.of("chown", "postgres:postgres", dir.toString()));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            run(120, as(List.of(bin("initdb"), "-D", data(), "-A", "trust", "-U", "postgres", "--no-sync")));
        }
        start();
        try (Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "postgres");
                Statement st = c.createStatement()) {
            if (!st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + TestServices.PG_DATABASE + "'")
                    .next()) {
                st.execute("CREATE DATABASE " + TestServices.PG_DATABASE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the test's PostgreSQL on port " + port + " does not answer", e);
        }
        stopImmediately();
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private List<String> pgCtl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(bin("pg_ctl"), "-D", data()));
        cmd.addAll(List.of(args));
        return as(cmd);
    }

    private List<String> as(List<String> cmd) {
        if (!root) {
            return cmd;
        }
        List<String> su = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        su.addAll(cmd);
        return su;
    }

    /** The binary of the machine's PostgreSQL server ({@code pg_config --bindir}), else from the PATH. */
    private static String bin(String name) {
        try {
            Process p = new ProcessBuilder("pg_config", "--bindir").start();
            String dir = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        } catch (IOException e) {
            // not installed: the PATH
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return name;
    }

    private void run(int seconds, List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(cmd + " did not end within " + seconds + " s: " + new String(out));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(cmd + " exited " + p.exitValue() + ": " + new String(out));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
