package dev.idempotency.it.jms.app;

import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageId;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The guarded handler: its effect is one row in PostgreSQL table {@value #TABLE} (no unique
 * constraint), written in the message's JTA transaction, so a rolled-back delivery leaves no row.
 */
@ApplicationScoped
public class Repayments {

    /** The string property carrying the producer's message id. */
    public static final String ID = "repaymentId";

    /** The string property telling the handler how to behave: {@code ok}, {@code flaky} or {@code poison}. */
    public static final String MODE = "mode";

    /** The effects table. */
    public static final String TABLE = "jms_it_effects";

    /** The attempt limit of this consumer. */
    public static final int MAX_ATTEMPTS = 3;

    /** The JTA data source on PostgreSQL, defined in the test's web.xml. */
    public static final String DATASOURCE = "java:app/jdbc/jmsIt";

    @Resource(lookup = DATASOURCE)
    DataSource ds;

    @Inject
    Ledger ledger;

    /**
     * Settles one repayment: writes its row, then fails if asked to ({@code flaky}: the first run only;
     * {@code poison}: every run).
     */
    @IdempotentConsumer(name = "jms-it.repayments", maxAttempts = MAX_ATTEMPTS)
    public void apply(@MessageId String id, String mode) {
        int run = ledger.ran(id);
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (msg_id, run) VALUES (?, ?)")) {
            ps.setString(1, id);
            ps.setInt(2, run);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        if ("poison".equals(mode) || ("flaky".equals(mode) && run == 1)) {
            throw new IllegalStateException("repayment failed in run " + run + " (test)");
        }
    }
}
