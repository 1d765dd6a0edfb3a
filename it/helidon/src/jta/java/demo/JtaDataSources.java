package demo;

import io.helidon.integrations.jta.jdbc.JtaAdaptingDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.sql.DataSource;

/**
 * Helidon's named data sources (HikariCP) are plain pools: their connections join no JTA transaction.
 * A JTA data source is the pool wrapped in Helidon's {@link JtaAdaptingDataSource}
 * (helidon-integrations-jta-jdbc), which enlists each connection in the current transaction; Helidon's
 * JPA integration does the same for a persistence unit's {@code <jta-data-source>}.
 */
@ApplicationScoped
public class JtaDataSources {

    @Inject
    @Named("orders")
    DataSource pool;

    @Inject
    TransactionManager transactions;

    @Inject
    TransactionSynchronizationRegistry registry;

    @Produces
    @ApplicationScoped
    @Named("ordersjta")
    DataSource ordersJta() {
        return new JtaAdaptingDataSource(transactions::getTransaction, registry, true, null, pool, true);
    }
}
