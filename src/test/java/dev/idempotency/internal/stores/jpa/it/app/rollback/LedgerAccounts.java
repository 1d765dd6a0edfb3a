package dev.idempotency.internal.stores.jpa.it.app.rollback;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A guarded method that takes a managed entity and returns one (a repeat replays the stored entity),
 * and the plain methods that make and load the accounts.
 */
@ApplicationScoped
public class LedgerAccounts {

    @PersistenceContext(unitName = "rollback-it")
    EntityManager em;

    @Inject
    BodyRuns runs;

    @Resource(lookup = "java:app/jdbc/jpaIt")
    DataSource ds;

    /** Creates the accounts table, unless it exists. */
    public void createTable() {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS jpa_it_account"
                    + " (id VARCHAR(200) PRIMARY KEY, balance BIGINT NOT NULL, parent_id VARCHAR(200))");
            s.execute("CREATE TABLE IF NOT EXISTS jpa_it_entry"
                    + " (id VARCHAR(200) PRIMARY KEY, accountid VARCHAR(200), cents BIGINT NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entries of an account in PostgreSQL: one per run of {@link #credit}. */
    public int entries(String accountId) {
        try (Connection c = ds.getConnection();
                java.sql.PreparedStatement s =
                        c.prepareStatement("SELECT COUNT(*) FROM jpa_it_entry WHERE accountid = ?")) {
            s.setString(1, accountId);
            try (java.sql.ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens an account under a parent account. */
    @Transactional
    public void open(String id, long balance, String parentId) {
        LedgerAccount parent = new LedgerAccount(parentId, 0);
        em.persist(parent);
        LedgerAccount a = new LedgerAccount(id, balance);
        a.setParent(parent);
        em.persist(a);
    }

    /** Loads an account in a transaction of its own: a detached, woven or enhanced instance. */
    @Transactional
    public LedgerAccount load(String id) {
        return em.find(LedgerAccount.class, id);
    }

    /**
     * Books a credit to an account once per request: an entity (with an unloaded lazy association) is the
     * payload, an entity the result. The entry has no unique constraint on the account: each run adds one.
     */
    @Idempotent(name = "jpa-it.accounts.credit")
    @Transactional
    public LedgerEntry credit(@IdempotencyKey String requestId, LedgerAccount account, long cents) {
        runs.ran(requestId);
        LedgerEntry entry = new LedgerEntry(requestId + "-" + runs.of(requestId), account.getId(), cents);
        em.persist(entry);
        return entry;
    }
}
