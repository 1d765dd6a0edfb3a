package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Creates {@link UniqueRow}'s table with its {@link RollbackWork#TAKEN} row, outside any transaction. */
@ApplicationScoped
public class UniqueTable {

    @Resource(lookup = "java:app/jdbc/jpaIt")
    DataSource ds;

    /** Creates the table and the taken row, unless they exist. */
    public void create() {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS jpa_it_unique (id VARCHAR(200) PRIMARY KEY)");
            s.execute("INSERT INTO jpa_it_unique (id) VALUES ('" + RollbackWork.TAKEN + "') ON CONFLICT DO NOTHING");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
