package demo;

import io.helidon.integrations.jta.jdbc.JtaAdaptingDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A JTA data source on Helidon, as an application server's is: Helidon's named data sources (HikariCP)
 * are plain pools whose connections join no JTA transaction. {@link JtaAdaptingDataSource}
 * (helidon-integrations-jta-jdbc) enlists each connection in the current transaction, but hands out a
 * new connection, a branch of its own, on each {@code getConnection()}: rows one branch wrote are not
 * seen by the next. An application server shares one connection per transaction; so does this
 * producer, through the transaction's resources in the {@link TransactionSynchronizationRegistry}, so
 * that the app's rows and the idempotency record are one branch and commit or roll back as one.
 */
@ApplicationScoped
public class JtaDataSources {

    private static final Object SHARED = new Object();

    @Inject
    @Named("orders")
    DataSource pool;

    @Inject
    TransactionManager transactions;

    @Inject
    TransactionSynchronizationRegistry registry;

    /** Helidon's adapter alone: a new enlisted connection, a branch of its own, on each call. */
    @Produces
    @ApplicationScoped
    @Named("ordersjtaraw")
    DataSource ordersJtaRaw() {
        return new JtaAdaptingDataSource(transactions::getTransaction, registry, true, null, pool, true);
    }

    /** One connection per transaction, as an application server's JTA data source. */
    @Produces
    @ApplicationScoped
    @Named("ordersjta")
    DataSource ordersJta() {
        DataSource enlisting = ordersJtaRaw();
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")
                            && method.getParameterCount() == 0
                            && registry.getTransactionStatus() == Status.STATUS_ACTIVE) {
                        return shared(enlisting);
                    }
                    try {
                        return method.invoke(enlisting, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The transaction's one connection, closed when the transaction ends; close() before that is a no-op. */
    private Connection shared(DataSource enlisting) throws SQLException {
        Connection connection = (Connection) registry.getResource(SHARED);
        if (connection == null) {
            Connection opened = enlisting.getConnection();
            registry.putResource(SHARED, opened);
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int status) {
                    try {
                        opened.close();
                    } catch (SQLException e) {
                        // the pool discards a connection it cannot close
                    }
                }
            });
            connection = opened;
        }
        Connection target = connection;
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            return null;
                        case "isClosed":
                            return target.isClosed();
                        default:
                            try {
                                return method.invoke(target, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }
}
