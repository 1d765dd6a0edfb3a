package dev.idempotency.internal.stores.jpa.it.app;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The business table of the JPA store IT, on the store's data source ({@code idempotency.jpa.datasource},
 * the default data source unless set), written in the caller's transaction. Plain SQL that H2, Derby
 * and PostgreSQL all accept; no unique constraint, so a double execution shows as two rows.
 */
@ApplicationScoped
public class BusinessRows {

    private DataSource ds;

    @PostConstruct
    void lookup() {
        String name = ConfigProvider.getConfig()
                .getOptionalValue("idempotency.jpa.datasource", String.class)
                .orElse("java:comp/DefaultDataSource");
        try {
            ds = (DataSource) new InitialContext().lookup(name);
        } catch (NamingException e) {
            throw new IllegalStateException(name, e);
        }
    }

    /** Creates the table, unless it exists. */
    public void createTable() {
        try {
            count("SELECT COUNT(*) FROM jpa_it_orders WHERE order_id = ?", "");
        } catch (IllegalStateException missing) {
            sql("CREATE TABLE jpa_it_orders (order_id VARCHAR(200))");
        }
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
