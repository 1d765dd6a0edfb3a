package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.stores.ContainerResources;
import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.spi.ConfigLookup;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Clock;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Starts the JPA store: in a container on the configured JTA data source, or in Java SE on a data
 * source of the application's. Either way the database is checked, the table created if allowed, and
 * a claim proven to work, so that a store that could only fail is refused at startup.
 */
public final class JpaStores {

    private static final System.Logger LOG = System.getLogger(JpaStores.class.getName());
    private static final String JTA_REGISTRY = "jakarta.transaction.TransactionSynchronizationRegistry";

    private JpaStores() {}

    /**
     * The store in a container: on the data source named by {@link JpaStoreSettings#DATASOURCE}
     * ({@link #dataSource}). Where the JTA API is present it joins callers' transactions through the JTA
     * registry; without it (Helidon or Quarkus without a transaction manager) every statement runs on
     * its own, {@code separate} mode only.
     *
     * @param settings the application's configuration
     * @param runner starts the store's own transactions
     * @throws DataSourceNotFound the data source is not bound (yet)
     * @throws IdempotencyConfigurationException the store cannot work with this configuration
     */
    static JpaIdempotencyStore inContainer(ConfigLookup settings, JtaTransactionRunner runner) {
        JpaStoreSettings jpa = JpaStoreSettings.from(settings);
        String name = jpa.datasource();
        Found found = dataSource(name);
        DataSource dataSource = found.dataSource();
        // JtaConnections names JTA types: loaded only where the JTA API is.
        Connections connections = ContainerResources.present(JTA_REGISTRY)
                ? new JtaConnections(dataSource, runner, JoinedMode.registryName(settings), found.bean())
                : new DataSourceConnections(dataSource);
        JpaIdempotencyStore s = start(connections, jpa, Clock.systemUTC());
        LOG.log(
                Level.INFO,
                "JPA idempotency store on {0} ({1}), {2}",
                name,
                s.dialectName(),
                s.notices() != null
                        ? "settlement notices on channel " + JpaIdempotencyStore.CHANNEL
                        : "no settlement notices (waiters poll)");
        return s;
    }

    /**
     * The data source named {@code name}: the CDI bean {@code @Named(name)} of type {@code DataSource}
     * (Helidon's and Quarkus's data sources are CDI beans), for the default name the default {@code
     * DataSource} bean, else the one JNDI binds at {@code name} (the Jakarta EE servers).
     *
     * @throws DataSourceNotFound none of these exists
     */
    static Found dataSource(String name) {
        boolean byDefault = name.equals(JpaStoreSettings.DEFAULT_DATASOURCE);
        DataSource bean = ContainerResources.bean(DataSource.class, byDefault ? null : name)
                .orElse(null);
        if (bean != null) {
            return new Found(bean, true);
        }
        if (byDefault && ContainerResources.ambiguous(DataSource.class)) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store cannot tell which data source is the default one (config key '"
                            + JpaStoreSettings.DATASOURCE + "' is '" + name + "'): several CDI beans of type"
                            + " javax.sql.DataSource have the default qualifier, and more or less than one of them"
                            + " has no @Named. Set '" + JpaStoreSettings.DATASOURCE + "' to the name of the one that"
                            + " holds the table.");
        }
        try {
            return new Found((DataSource) ContainerResources.jndi(name), false);
        } catch (NamingException | ClassCastException e) {
            throw new DataSourceNotFound(
                    "The JPA idempotency store cannot find the data source '" + name + "' (config key '"
                            + JpaStoreSettings.DATASOURCE + "'): no CDI bean of type javax.sql.DataSource "
                            + (byDefault ? "with the default qualifier" : "named '" + name + "'")
                            + ", and no JNDI binding (" + e + "). Name a data source the application can look"
                            + " up: its JNDI name (e.g. java:app/jdbc/orders), or the name of a @Named DataSource"
                            + " bean (on Helidon, the <name> of javax.sql.DataSource.<name>.*; on Quarkus, the <name> of"
                            + " quarkus.datasource.<name>.*).",
                    e);
        }
    }

    /** A data source, and whether it is a CDI bean of the application's rather than the server's. */
    record Found(DataSource dataSource, boolean bean) {}

    /**
     * A store for Java SE on a (pooled) data source, {@code separate} mode only: checks the database
     * and creates the table as in a container (see {@link Schema#prepare}).
     *
     * @param dataSource where the table lives
     * @param settings the {@code idempotency.jpa.*} keys
     * @param clock the store's clock
     * @throws IdempotencyConfigurationException the store cannot work with this data source and
     *     configuration; the message names the key to change
     */
    public static JpaIdempotencyStore resourceLocal(DataSource dataSource, JpaStoreSettings settings, Clock clock) {
        return start(new DataSourceConnections(dataSource), settings, clock);
    }

    /**
     * Checks the database, creates the table if allowed, and proves that a claim works, so that a
     * store that could only fail is refused at startup.
     */
    static JpaIdempotencyStore start(Connections connections, JpaStoreSettings settings, Clock clock) {
        Dialect dialect = Schema.prepare(connections, settings);
        boolean notifies = notifies(dialect, settings);
        SettlementNotices notices = notifies && listenable(connections) ? new SettlementNotices(connections) : null;
        SettlementNotifier notifier = notifies ? new SettlementNotifier(connections) : null;
        JpaIdempotencyStore store = new JpaIdempotencyStore(connections, dialect, settings, clock, notifier, notices);
        store.probe();
        return store;
    }

    /** Whether complete and release send notices: on PostgreSQL, when switched on. */
    private static boolean notifies(Dialect dialect, JpaStoreSettings settings) {
        return dialect.notifiesSettlements() && settings.notifySettlements();
    }

    /** Whether this node can listen for notices: see {@link SettlementNotices#reachable}. */
    private static boolean listenable(Connections connections) {
        try {
            return connections.separate(SettlementNotices::reachable);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "settlement notices unavailable, waiters poll: {0}", e.toString());
            return false;
        }
    }

    /** The configured data source cannot be looked up. */
    static final class DataSourceNotFound extends IdempotencyConfigurationException {
        private static final long serialVersionUID = 1L;

        DataSourceNotFound(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
