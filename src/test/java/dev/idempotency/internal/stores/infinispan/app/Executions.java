package dev.idempotency.internal.stores.infinispan.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;

/**
 * The guarded methods of the cluster test. Every execution inserts a row into PostgreSQL table
 * {@code ispn_exec}, outside any node's memory, so the test can count executions after a node died.
 */
@ApplicationScoped
public class Executions {

    /** The node's name, from system property {@code ispn.it.node}. */
    static final String NODE = System.getProperty("ispn.it.node", "?");

    /** This incarnation of the node: the test kills processes, and knows their ids. */
    static final long PID = ProcessHandle.current().pid();

    /**
     * Runs once per key across the cluster; concurrent callers wait for the outcome and replay it.
     * The lease is long so that no waiter gives up on a busy 2-core machine.
     */
    @Idempotent(name = "ispn-it.exec", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    public String exec(@IdempotencyKey String key) throws SQLException {
        record(key);
        return key + " ran on " + NODE + " as " + UUID.randomUUID();
    }

    /**
     * Runs once per key; a concurrent caller is rejected. On the node started with {@code
     * -Dispn.it.sleepy=true} it sleeps for a minute after recording its execution, so that the test
     * can kill that node while it holds the claim. The lease is the application's default,
     * {@code idempotency.lease=PT3S}.
     */
    @Idempotent(name = "ispn-it.slow")
    public String slow(@IdempotencyKey String key) throws SQLException, InterruptedException {
        record(key);
        if (Boolean.getBoolean("ispn.it.sleepy")) {
            Thread.sleep(60_000);
        }
        return key + " ran on " + NODE + " as " + UUID.randomUUID();
    }

    /**
     * Runs once per key; a concurrent caller is rejected (409) at once. The lease is the application's
     * default, {@code idempotency.lease=PT3S}, so that a key whose node was killed is taken over soon.
     */
    @Idempotent(name = "ispn-it.chaos")
    public String chaos(@IdempotencyKey String key) throws SQLException {
        record(key);
        return key + " ran on " + NODE + " as " + UUID.randomUUID();
    }

    /**
     * Configured for the joined mode ({@code Executions/joinedWithoutTransaction/Idempotent/transaction})
     * but called without a transaction: refused before it runs, since its outcome could not be prepared.
     */
    @Idempotent(name = "ispn-it.joined-no-tx")
    public String joinedWithoutTransaction(@IdempotencyKey String key) throws SQLException {
        record(key);
        return key + " ran on " + NODE;
    }

    private static void record(String key) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        // The driver in WEB-INF/lib is not visible to DriverManager's system class loader lookup.
        try (Connection c = new org.postgresql.Driver().connect(database(), p);
                PreparedStatement ps = c.prepareStatement("INSERT INTO ispn_exec (key, node, pid) VALUES (?, ?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, NODE);
            ps.setLong(3, PID);
            ps.executeUpdate();
        }
    }

    /** The tests' PostgreSQL database: {@code test}, or {@code test_<IDEMPOTENCY_TEST_NS>} (see TestServices). */
    private static String database() {
        String ns = System.getenv("IDEMPOTENCY_TEST_NS");
        return "jdbc:postgresql://127.0.0.1:5432/" + (ns == null || ns.isBlank() ? "test" : "test_" + ns.strip());
    }
}
