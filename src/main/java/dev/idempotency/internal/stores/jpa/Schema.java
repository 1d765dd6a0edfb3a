package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The store's startup checks on its database: which dialect, whether the table is there (created
 * from the shipped DDL when allowed), and whether it has the columns the store uses. Each failure is
 * an {@link IdempotencyConfigurationException} naming the key to change, so that a store that could
 * only fail never starts (in a container: the deployment fails).
 */
final class Schema {

    private static final System.Logger LOG = System.getLogger(Schema.class.getName());

    /** Selects every column the store uses, and no row: fails if the table or a column is missing. */
    private static final String PROBE = "SELECT idem_key, status, owner_token, fingerprint, expires_at, outcome,"
            + " created_at, updated_at FROM " + JpaIdempotencyStore.TABLE + " WHERE 1 = 0";

    private Schema() {}

    /**
     * Detects (or checks) the dialect, creates the table if it is missing and {@code
     * idempotency.jpa.create-table} allows, and checks its columns.
     *
     * @return the dialect to use
     */
    static Dialect prepare(Connections connections, JpaStoreSettings settings) {
        String product;
        try {
            product = connections.separate(c -> c.getMetaData().getDatabaseProductName());
        } catch (SQLException | RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store cannot connect to its data source: " + e + ". Check '"
                            + JpaStoreSettings.DATASOURCE + "' and that the database is reachable at startup.",
                    e);
        }
        Dialect detected = Dialect.ofProduct(product);
        Dialect dialect = detected;
        if (settings.dialect().isPresent()) {
            dialect = Dialect.ofConfig(
                    JpaStoreSettings.DIALECT, settings.dialect().get());
            // generic (plain INSERT and SELECT) works on any database; another dialect only on its own.
            if (detected != Dialect.GENERIC && dialect != Dialect.GENERIC && dialect != detected) {
                throw new IdempotencyConfigurationException("Config key '" + JpaStoreSettings.DIALECT + "' is '"
                        + settings.dialect().get() + "', but the data source's database is " + product + " ("
                        + detected.configName() + "); remove the key, or set it to " + detected.configName() + ".");
            }
        }
        SQLException missing = probe(connections);
        if (missing != null && settings.createTable()) {
            if (!dialect.shipsDdl()) {
                throw new IdempotencyConfigurationException("The JPA idempotency store's table "
                        + JpaIdempotencyStore.TABLE + " does not exist in the data source's database (" + product
                        + "), and the store ships no DDL for it: " + missing + ". Create the table as docs/jpa-store.md"
                        + " (The table) shows and set '" + JpaStoreSettings.CREATE_TABLE + "=false', or, if the"
                        + " database is PostgreSQL, MariaDB/MySQL, H2 or Derby under another name, set '"
                        + JpaStoreSettings.DIALECT + "'.");
            }
            create(connections, dialect);
            missing = probe(connections);
        }
        if (missing != null) {
            throw new IdempotencyConfigurationException("The JPA idempotency store's table " + JpaIdempotencyStore.TABLE
                    + " is missing or lacks columns in the data source's database (" + product + "): " + missing
                    + ". Create it with " + dialect.ddlResource() + " from the idempotency-ee jar (or as"
                    + " docs/jpa-store.md shows), or set '" + JpaStoreSettings.CREATE_TABLE
                    + "=true' (the default) to let the store create it.");
        }
        return dialect;
    }

    /** @return null if the table has every column, else why not */
    private static SQLException probe(Connections connections) {
        try {
            connections.separate(c -> {
                try (Statement s = c.createStatement()) {
                    s.executeQuery(PROBE).close();
                }
                return null;
            });
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /**
     * Runs the shipped DDL. PostgreSQL, MariaDB/MySQL and H2 use {@code IF NOT EXISTS}; Derby has none,
     * so a statement that fails because a node starting at the same time created the table first is
     * ignored (the probe after it decides).
     */
    private static void create(Connections connections, Dialect dialect) {
        try {
            connections.separate(c -> {
                try (Statement s = c.createStatement()) {
                    for (String ddl : dialect.ddl()) {
                        try {
                            s.execute(ddl);
                        } catch (SQLException e) {
                            if (dialect != Dialect.DERBY) {
                                throw e;
                            }
                            LOG.log(Level.DEBUG, "DDL statement failed, the probe decides: {0}", e.toString());
                        }
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store could not create its table " + JpaIdempotencyStore.TABLE + ": " + e
                            + ". Create it with " + dialect.ddlResource() + " from the idempotency-ee jar and set '"
                            + JpaStoreSettings.CREATE_TABLE + "=false'.",
                    e);
        }
    }
}
