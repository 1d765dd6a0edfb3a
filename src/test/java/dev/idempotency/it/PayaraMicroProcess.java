package dev.idempotency.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Micro process of a test's own, for what Arquillian's Payara Micro container cannot do: kill
 * the server with {@code kill -9}, or see that a deployment failed (the container reports a WAR that
 * failed to deploy as deployed, with no application in it).
 */
public final class PayaraMicroProcess implements AutoCloseable {

    /** What Payara Micro logs once it finished starting, whether the application deployed or not. */
    private static final String STARTED = "Payara Micro URLs:";

    private static final String NOTHING_DEPLOYED = "Deployed 0 archive(s)";

    private final Process process;
    private final Path log;

    private PayaraMicroProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts Payara Micro ({@code payara.microJar}) with one WAR, on 127.0.0.1's {@code port}, with its
     * root directory and log under {@code dir}.
     *
     * @param jvmArgs extra JVM arguments, such as {@code -Dname=value}
     */
    public static PayaraMicroProcess start(Path war, Path dir, String name, int port, String... jvmArgs)
            throws IOException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(List.of(jvmArgs));
        String micro = System.getProperty("payara.microJar", "target/payara/payara-micro.jar");
        cmd.addAll(List.of(
                "-jar",
                micro,
                "--nocluster",
                // No Hazelcast at all (the tests use none): about 2 s less per boot.
                "--nohazelcast",
                "--disablephonehome",
                "--rootdir",
                // One root per Payara generation: Payara Micro 7 cannot boot on a root that 6 wrote.
                dir.resolve("root-" + System.getProperty("it.reports", "payara") + "-" + name)
                        .toString(),
                "--port",
                String.valueOf(port),
                "--deploy",
                war.toString()));
        Path log = dir.resolve("payara-" + name + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new PayaraMicroProcess(p, log);
    }

    /** The process's output so far. */
    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Where the output goes. */
    public Path logFile() {
        return log;
    }

    /** The process. */
    public Process process() {
        return process;
    }

    /**
     * Waits until Payara Micro finished starting, bounded by {@code limit}.
     *
     * @return whether the WAR deployed
     * @throws AssertionError when the process exits or the limit passes first
     */
    public boolean awaitStarted(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String out = log();
            if (out.contains(STARTED)) {
                return !out.contains(NOTHING_DEPLOYED) && !out.contains("Exception while loading the app");
            }
            if (!process.isAlive()) {
                throw new AssertionError(
                        "Payara Micro exited with " + process.exitValue() + " while starting; see " + log);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Payara Micro did not finish starting within " + limit + "; see " + log);
            }
            Thread.sleep(200);
        }
    }

    /** SIGKILL: {@code destroyForcibly} sends it on Linux; no shutdown hook, no rollback, no flush. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the killed process did not exit within 30 s");
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 60 s). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                // Stopped while waiting: make sure it dies, and keep the interruption for the caller.
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
