package dev.idempotency.internal.stores.jpa;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A caller's transaction in Java SE, as a JTA container gives it to the store in the joined mode: one
 * connection with autocommit off, bound to the thread, begun and ended by the caller; the store's
 * joined statements and the caller's business rows run on it, as the container's connection sharing
 * does within one transaction.
 */
final class CallerTransactions implements Connections {

    private final DataSource dataSource;
    private final ThreadLocal<Connection> bound = new ThreadLocal<>();
    private final ThreadLocal<java.util.List<Runnable>> afterCommit = ThreadLocal.withInitial(java.util.ArrayList::new);

    CallerTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    void begin() throws SQLException {
        Connection c = dataSource.getConnection();
        c.setAutoCommit(false);
        bound.set(c);
    }

    void insertEffect(String name) throws SQLException {
        try (PreparedStatement ps = bound.get().prepareStatement("INSERT INTO joined_effects (name) VALUES (?)")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    void commit() throws SQLException {
        end(true);
    }

    void rollback() throws SQLException {
        end(false);
    }

    private void end(boolean commit) throws SQLException {
        Connection c = bound.get();
        bound.remove();
        java.util.List<Runnable> actions = java.util.List.copyOf(afterCommit.get());
        afterCommit.remove();
        try (c) {
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
        }
        if (commit) {
            actions.forEach(Runnable::run); // as a JTA synchronization's afterCompletion(STATUS_COMMITTED)
        }
    }

    @Override
    public <T> T separate(Work<T> work) throws SQLException {
        return Connections.autocommitted(dataSource, work);
    }

    @Override
    public <T> T joined(Work<T> work, String operation) throws SQLException {
        Connection c = bound.get();
        if (c == null) {
            throw new IllegalStateException("no caller transaction on this thread for " + operation);
        }
        return work.run(c);
    }

    @Override
    public boolean canJoin() {
        return true;
    }

    @Override
    public void afterCommit(Runnable action) {
        if (bound.get() == null) {
            throw new IllegalStateException("no caller transaction on this thread");
        }
        afterCommit.get().add(action);
    }

    @Override
    public Connection kept() throws SQLException {
        return dataSource.getConnection();
    }
}
