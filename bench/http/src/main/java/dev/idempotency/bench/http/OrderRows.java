package dev.idempotency.bench.http;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The work of a payment or order endpoint: one row INSERTed into PostgreSQL in a JTA transaction
 * (REQUIRED: it joins the transaction the filter began in the joined mode, else begins its own). The
 * table {@code bench_order} has no unique constraint, so a double execution would show as an extra row.
 */
@ApplicationScoped
public class OrderRows {

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** Creates the table if missing (called by write.sh through {@code PUT /api/write/table}). */
    public void createTable() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS bench_order (id BIGSERIAL, order_key VARCHAR(200),"
                    + " body VARCHAR(400), created_at TIMESTAMP DEFAULT now())");
        }
    }

    /**
     * Inserts one row.
     *
     * @param key what identifies the request (its Idempotency-Key, or "-" when unguarded)
     * @param body the request body
     */
    @Transactional
    public void insert(String key, String body) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO bench_order (order_key, body) VALUES (?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, body);
            ps.executeUpdate();
        }
    }
}
