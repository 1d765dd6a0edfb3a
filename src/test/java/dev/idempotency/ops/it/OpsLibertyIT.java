package dev.idempotency.ops.it;

import dev.idempotency.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link OpsScenarios} on Open Liberty (the Liberty profile: {@code mvn -Pservices -Dit.server=liberty verify}), in a server
 * {@code ops} of its own next to the in-container tests' server, with MicroProfile Metrics 5.1, Health
 * 4.0 and OpenAPI 3.1 and the default data source on the proxy. Not through Arquillian: the server
 * needs features and a data source that the shared server does not have.
 */
class OpsLibertyIT extends OpsScenarios {

    private static final PgProxy PROXY = new PgProxy(TestServices.port(15433), 5432);
    private static final int PORT = TestServices.port(17180);
    private static Path home;
    private static Path log;
    private static Process server;

    /**
     * Writes the server's configuration and starts it in the foreground: the WAR in its {@code apps}
     * folder, the PostgreSQL driver that {@code src/it/liberty/setup.sh} put next to the shared server,
     * a data source that validates connections and purges the whole pool on one failure (so it recovers
     * when the database is back), /metrics without authentication.
     */
    @BeforeAll
    static void start() throws Exception {
        home = Path.of(System.getProperty("it.liberty.home", "target/servers/liberty-26.0.0.3/wlp"));
        Path driver = home.resolve("usr/servers/it/lib/postgresql.jar");
        if (!Files.isRegularFile(driver)) {
            throw new AssertionError("no " + driver
                    + ": run this test in the Liberty profile (mvn -Pservices -Dit.server=liberty verify), "
                    + "which unpacks Open Liberty and runs src/it/liberty/setup.sh");
        }
        String database = TestServices.postgresUrl(); // creates the namespace's database when missing
        PROXY.open();
        Path dir = home.resolve("usr/servers/ops");
        deleteTree(dir);
        Files.createDirectories(dir.resolve("apps"));
        Files.createDirectories(dir.resolve("lib"));
        Files.copy(driver, dir.resolve("lib/postgresql.jar"));
        deployment()
                .as(ZipExporter.class)
                .exportTo(dir.resolve("apps/ops-it.war").toFile(), true);
        Files.writeString(dir.resolve("jvm.options"), "-Xmx512m\n-XX:TieredStopAtLevel=1\n");
        // The web profile of the Liberty step (webProfile-11.0 for Jakarta EE 11), and the MicroProfile
        // OpenAPI that goes with it: 3.1 needs Jakarta EE 10, 4.1 is the one for EE 11.
        String profile = System.getProperty("it.liberty.webProfile", "webProfile-10.0");
        Files.writeString(
                dir.resolve("server.xml"),
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <server description="idempotency-ee operations test">
                  <featureManager>
                    <feature>%s</feature>
                    <feature>mpConfig-3.1</feature>
                    <feature>mpMetrics-5.1</feature>
                    <feature>mpHealth-4.0</feature>
                    <feature>%s</feature>
                  </featureManager>
                  <ltpa keysPassword="ops-it"/>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
                  <mpMetrics authentication="false"/>
                  <library id="pg">
                    <file name="${server.config.dir}/lib/postgresql.jar"/>
                  </library>
                  <dataSource id="DefaultDataSource" validationTimeout="5s">
                    <jdbcDriver libraryRef="pg"/>
                    <connectionManager maxPoolSize="8" connectionTimeout="5s" purgePolicy="EntirePool"/>
                    <properties.postgresql serverName="127.0.0.1" portNumber="%d" databaseName="%s"
                                           user="postgres" password="postgres"/>
                  </dataSource>
                  <webApplication location="ops-it.war" contextRoot="ops-it"/>
                  <applicationMonitor updateTrigger="disabled" dropinsEnabled="false"/>
                </server>
                """
                        .formatted(
                                profile,
                                profile.endsWith("-11.0") ? "mpOpenAPI-4.1" : "mpOpenAPI-3.1",
                                PORT,
                                PROXY.port(),
                                database.substring(database.lastIndexOf('/') + 1)));
        log = dir.resolve("console.log");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/server").toString(), "run", "ops")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        server = pb.start();
        // CWWKZ0002E: the application failed to start.
        awaitApplication(server, "Open Liberty", PORT, log, "CWWKZ0002E", Duration.ofSeconds(240));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                Process stop = new ProcessBuilder(home.resolve("bin/server").toString(), "stop", "ops")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                stop.waitFor(90, TimeUnit.SECONDS);
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.descendants().forEach(ProcessHandle::destroyForcibly);
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
