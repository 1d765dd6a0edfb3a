package dev.idempotency.ops.it;

import dev.idempotency.TestServices;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link OpsScenarios} on Payara Micro, started by this test (the default build). */
class OpsIT extends OpsScenarios {

    private static final PgProxy PROXY = new PgProxy(TestServices.port(15432), 5432);
    private static final int PORT = TestServices.port(18080);
    private static final Path DIR = Path.of("target", "ops-it");
    private static Process server;

    /**
     * Starts Payara Micro with the WAR, the PostgreSQL driver and the default data source pointed by postboot
     * commands at a pool of its own (as the demo does): a validating pool on the proxy that fails all connections
     * on one failure, so that it recovers when the database is back, and waits at most 5 s for a connection. Not
     * through Arquillian: its Payara Micro container has no way to pass these per test class.
     */
    @BeforeAll
    static void start() throws Exception {
        String database = TestServices.postgresUrl(); // creates the namespace's database when missing
        PROXY.open();
        Files.createDirectories(DIR);
        // A fresh root: a root from an earlier run keeps its pool, and create-jdbc-connection-pool fails.
        deleteTree(DIR.resolve("root"));
        File[] driver = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.postgresql:postgresql")
                .withoutTransitivity()
                .asFile();
        Path boot = DIR.resolve("postboot.asadmin");
        Files.writeString(
                boot,
                "create-jdbc-connection-pool --datasourceclassname=org.postgresql.ds.PGSimpleDataSource"
                        + " --restype=javax.sql.DataSource --isconnectvalidatereq=true --validationmethod=auto-commit"
                        + " --failconnection=true --maxwait=5000 --steadypoolsize=0 --maxpoolsize=8"
                        + " --property user=postgres:password=postgres:serverName=127.0.0.1:portNumber=" + PROXY.port()
                        + ":databaseName=" + database.substring(database.lastIndexOf('/') + 1) + " ops-it-pool\n"
                        + "set resources.jdbc-resource.jdbc/__default.pool-name=ops-it-pool\n");
        Path war = DIR.resolve("ops-it.war");
        deployment().as(ZipExporter.class).exportTo(war.toFile(), true);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String micro = System.getProperty("payara.microJar", "target/payara/payara-micro.jar");
        Path log = DIR.resolve("payara.log");
        server = new ProcessBuilder(
                        java,
                        "-Xmx768m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-jar",
                        micro,
                        "--nocluster",
                        "--rootdir",
                        DIR.resolve("root").toString(),
                        "--port",
                        String.valueOf(PORT),
                        "--addlibs",
                        driver[0].getPath(),
                        "--postbootcommandfile",
                        boot.toString(),
                        "--deploy",
                        war.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        awaitApplication(server, "Payara Micro", PORT, log, "Exception while loading the app", Duration.ofSeconds(240));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.destroy();
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            PROXY.close();
        }
    }

    @Override
    int port() {
        return PORT;
    }

    @Override
    PgProxy database() {
        return PROXY;
    }
}
