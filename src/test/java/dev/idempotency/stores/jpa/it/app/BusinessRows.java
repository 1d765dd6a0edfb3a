package dev.idempotency.stores.jpa.it.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The business table of the JPA store IT, on the default data source, written in the caller's transaction. */
@ApplicationScoped
public class BusinessRows {

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource ds;

    /** Creates the table once. */
    public void createTable() {
        sql("CREATE TABLE IF NOT EXISTS jpa_it_orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_id VARCHAR(200))");
    }

    /** Inserts one row for the order, in whatever JTA transaction is active. */
    public void insert(String orderId) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO jpa_it_orders (order_id) VALUES (?)")) {
            ps.setString(1, orderId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Committed rows of an order. */
    public int count(String orderId) {
        return count("SELECT COUNT(*) FROM jpa_it_orders WHERE order_id = ?", orderId);
    }

    /** Committed idempotency records of a store key. */
    public int records(String storeKey) {
        return count("SELECT COUNT(*) FROM idempotency_record WHERE idem_key = ?", storeKey);
    }

    private int count(String sql, String arg) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void sql(String sql) {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
