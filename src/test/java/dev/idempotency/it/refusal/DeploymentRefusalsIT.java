package dev.idempotency.it.refusal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.TestServices;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.PayaraMicroProcess;
import dev.idempotency.it.refusal.app.AsyncJoinedResource;
import dev.idempotency.it.refusal.app.RefusalApp;
import dev.idempotency.it.refusal.app.SyncJoinedResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A configuration that cannot work is refused at deployment on every server, not answered with a 500
 * per call:
 *
 * <ul>
 *   <li>an asynchronous resource method in the JPA store's joined mode fails the deployment, while the
 *       same WAR with the method synchronous deploys (so the refusal is for that reason, not another);
 *   <li>a JPA store data source name that nothing binds fails the deployment, in a WAR without EJBs
 *       (whose web.xml data sources some servers bind only when the web module starts);
 *   <li>a per-operation transaction-mode key whose operation name matches no guarded operation fails
 *       the deployment, while the same WAR without it deploys.
 * </ul>
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DeploymentRefusalsIT {

    private static final String DATASOURCE = "java:app/jdbc/refusal";
    private static final boolean PAYARA = Deployments.server().equals("payara");
    private static final Duration BOOT = Duration.ofSeconds(240);

    @ArquillianResource
    Deployer deployer;

    private static WebArchive war(String name, Class<?> resource) {
        return war(name, resource, DATASOURCE);
    }

    private static WebArchive war(String name, Class<?> resource, String storeDataSource) {
        return war(name, resource, storeDataSource, "");
    }

    private static WebArchive war(String name, Class<?> resource, String storeDataSource, String moreConfig) {
        return war(name, resource, "jpa", storeDataSource, moreConfig);
    }

    /** The resources' operation is in the joined mode by its annotation. */
    private static WebArchive war(
            String name, Class<?> resource, String store, String storeDataSource, String moreConfig) {
        return Deployments.withPostgres(
                Deployments.war(name)
                        .addClasses(RefusalApp.class, resource)
                        .addAsResource(
                                new StringAsset("idempotency.store=" + store + "\n" + "idempotency.jpa.datasource="
                                        + storeDataSource + "\n" + moreConfig),
                                "META-INF/microprofile-config.properties"),
                DATASOURCE);
    }

    @Deployment(name = "async", managed = false, testable = false)
    static WebArchive async() {
        return war("refusal-async.war", AsyncJoinedResource.class);
    }

    @Deployment(name = "sync", managed = false, testable = false)
    static WebArchive sync() {
        // Without AsyncJoinedResource: its operation name is a constant the compiler copied.
        return war("refusal-sync.war", SyncJoinedResource.class);
    }

    @Deployment(name = "unbound", managed = false, testable = false)
    static WebArchive unbound() {
        return war("refusal-unbound.war", SyncJoinedResource.class, "java:app/jdbc/nothing-binds-this");
    }

    @Deployment(name = "retired", managed = false, testable = false)
    static WebArchive retired() {
        // The control's WAR, plus the per-operation key of the store's former transaction mode.
        return war(
                "refusal-retired.war",
                SyncJoinedResource.class,
                DATASOURCE,
                "idempotency.jpa.transaction.refunds.create=joined\n");
    }

    @Deployment(name = "unjoinable", managed = false, testable = false)
    static WebArchive unjoinable() {
        // The control's WAR on the memory store, which cannot write in the caller's transaction.
        return war("refusal-unjoinable.war", SyncJoinedResource.class, "memory", DATASOURCE, "");
    }

    @Test
    void aRetiredTransactionModeKeyFailsTheDeploymentNamingItsReplacement() throws Exception {
        refused(
                "retired",
                retired(),
                "Config key 'idempotency.jpa.transaction.refunds.create' is no longer read: the transaction mode is"
                        + " now a setting of each operation");
    }

    @Test
    void aJoinedOperationOnAStoreThatCannotJoinFailsTheDeployment() throws Exception {
        refused("unjoinable", unjoinable(), "but the idempotency store (MemoryIdempotencyStore) cannot write in it");
    }

    @Test
    void aDataSourceNameThatNothingBindsFailsTheDeployment() throws Exception {
        refused("unbound", unbound(), "cannot find the data source 'java:app/jdbc/nothing-binds-this'");
    }

    @Test
    void anAsynchronousResourceInTheJoinedModeFailsTheDeployment() throws Exception {
        refused("async", async(), "cannot use the joined transaction mode");
    }

    @Test
    void theSameOperationSynchronousDeploys() throws Exception {
        if (PAYARA) {
            try (PayaraMicroProcess server = payara("sync", sync())) {
                assertTrue(server.awaitStarted(BOOT), "the control deploys; see " + server.logFile());
            }
        } else {
            deployer.deploy("sync");
            deployer.undeploy("sync");
        }
    }

    /**
     * Asserts that the server refuses the deployment. Arquillian's Payara Micro container reports a WAR
     * that failed to deploy as deployed (its server just has no application), so on Payara Micro the
     * WAR goes to a process of the test's own, whose log must show the failure and the message.
     */
    private void refused(String name, WebArchive war, String message) throws Exception {
        if (!PAYARA) {
            assertThrows(Exception.class, () -> deployer.deploy(name), "the deployment must be refused");
            return;
        }
        try (PayaraMicroProcess server = payara(name, war)) {
            assertFalse(server.awaitStarted(BOOT), "the deployment must be refused; see " + server.logFile());
            assertTrue(
                    server.log().contains(message),
                    "the failure names the cause: " + message + "; see " + server.logFile());
        }
    }

    private static PayaraMicroProcess payara(String name, WebArchive war) throws Exception {
        Path dir = Path.of("target", "refusal-it");
        Files.createDirectories(dir);
        Path file = dir.resolve(war.getName());
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
        return PayaraMicroProcess.start(file, dir, name, TestServices.port(18091));
    }
}
