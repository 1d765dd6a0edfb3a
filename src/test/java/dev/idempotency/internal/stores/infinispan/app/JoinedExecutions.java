package dev.idempotency.internal.stores.infinispan.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The guarded method of the chaos run in the joined mode ({@code
 * JoinedExecutions/chaosJoined/Idempotent/transaction=joined}): an EJB with a container-managed
 * transaction that writes its execution row through the application's JTA data source, so the row
 * commits with that transaction and the outcome is prepared inside it.
 */
@Stateless
public class JoinedExecutions {

    @Resource(lookup = "java:app/jdbc/chaos")
    DataSource rows;

    /** Runs once per key; a concurrent caller is rejected (409); the lease is the application's 3 s. */
    @Idempotent(name = "ispn-it.chaos-joined")
    public String chaosJoined(@IdempotencyKey String key) throws SQLException {
        try (Connection c = rows.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO ispn_exec (key, node, pid) VALUES (?, ?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, Executions.NODE);
            ps.setLong(3, Executions.PID);
            ps.executeUpdate();
        }
        return key + " ran on " + Executions.NODE + " as " + UUID.randomUUID();
    }
}
