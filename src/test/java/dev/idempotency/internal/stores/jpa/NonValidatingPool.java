package dev.idempotency.internal.stores.jpa;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * A connection pool as Payara's and GlassFish's are by default: it hands an idle connection out again
 * without testing it, and drops only a connection that was aborted. After a database restart every
 * idle connection in it is dead.
 */
final class NonValidatingPool extends StubDataSource {

    private final DataSource target;
    private final Deque<Connection> idle = new ArrayDeque<>();

    NonValidatingPool(DataSource target) {
        this.target = target;
    }

    /** Idle connections in the pool. */
    synchronized int idle() {
        return idle.size();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection physical;
        synchronized (this) {
            physical = idle.pollFirst();
        }
        if (physical == null) {
            physical = target.getConnection();
        }
        Connection handed = physical;
        AtomicBoolean aborted = new AtomicBoolean();
        AtomicBoolean closed = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(
                NonValidatingPool.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "close" -> {
                            if (closed.compareAndSet(false, true) && !aborted.get()) {
                                synchronized (this) {
                                    idle.push(handed);
                                }
                            }
                            return null;
                        }
                        case "abort" -> {
                            aborted.set(true);
                            try {
                                handed.close();
                            } catch (SQLException e) {
                                // already broken
                            }
                            return null;
                        }
                        case "isClosed" -> {
                            return closed.get() || aborted.get();
                        }
                        default -> {
                            try {
                                return m.invoke(handed, a);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    }
                });
    }
}
