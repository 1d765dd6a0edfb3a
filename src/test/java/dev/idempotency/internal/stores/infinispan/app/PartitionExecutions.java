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
 * The guarded method of {@code InfinispanPartitionIT}. Every execution inserts a row into PostgreSQL
 * table {@code ispn_exec}, outside any node's memory. The nodes run in network namespaces where
 * 127.0.0.1:5432 is not the machine's PostgreSQL: the JDBC URL comes from system property {@code
 * ispn.partition.jdbc} (the test's forwarder to PostgreSQL).
 */
@ApplicationScoped
public class PartitionExecutions {

    /** The node's name, from system property {@code ispn.partition.node}. */
    static final String NODE = System.getProperty("ispn.partition.node", "?");

    /** The guarded method's lease. */
    public static final String LEASE = "PT20S";

    /** A key ending so runs this long after its row is inserted (a call in flight at a cut). */
    public static final String SLOW_SUFFIX = "-slow";

    /** How long a key ending with {@link #SLOW_SUFFIX} runs after its row is inserted. */
    public static final long SLOW_MILLIS = 3000;

    /**
     * Runs once per key across the cluster; a concurrent caller waits for the outcome and replays it.
     * A store that cannot decide (minority partition, remote timeout) throws {@link
     * dev.idempotency.IdempotencyStoreUnavailableException} and the method does not run.
     */
    @Idempotent(name = "ispn-partition.exec", onInProgress = InProgressPolicy.WAIT, lease = LEASE)
    public String exec(@IdempotencyKey String key) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        // The driver in WEB-INF/lib is not visible to DriverManager's system class loader lookup.
        try (Connection c = new org.postgresql.Driver().connect(System.getProperty("ispn.partition.jdbc"), p);
                PreparedStatement ps = c.prepareStatement("INSERT INTO ispn_exec (key, node) VALUES (?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, NODE);
            ps.executeUpdate();
        }
        if (key.endsWith(SLOW_SUFFIX)) {
            try {
                Thread.sleep(SLOW_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return key + " ran on " + NODE + " as " + UUID.randomUUID();
    }
}
