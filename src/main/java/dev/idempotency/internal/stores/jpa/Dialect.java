package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the store needs to know about a database: the claim statement, the shipped DDL, and whether
 * the {@code joined} mode can work on it.
 *
 * <p>The claim never relies on an error that aborts a transaction which must go on: on PostgreSQL
 * (which aborts a transaction on any error) it is {@code INSERT ... ON CONFLICT DO NOTHING}; on
 * MariaDB/MySQL {@code INSERT IGNORE}; on H2, Derby and other databases a plain INSERT whose
 * duplicate-key error (SQLState class 23) fails only that statement. Every statement goes through
 * plain JDBC, so no JPA provider ever sees (or logs) a failed INSERT.
 */
enum Dialect {
    /** PostgreSQL: the claim and the read of an existing row are one statement. */
    POSTGRESQL("postgresql", true, true),
    /** MariaDB and MySQL (InnoDB). */
    MYSQL("mysql", true, true),
    /** H2 2.x: a duplicate key fails only the statement. */
    H2("h2", true, true),
    /**
     * Apache Derby: a duplicate key fails only the statement, but a lock wait that times out rolls the
     * whole transaction back, so the {@code joined} mode (whose duplicates wait on the first caller's
     * uncommitted row) is refused.
     */
    DERBY("derby", true, false),
    /** Any other database: plain INSERT and SELECT, no shipped DDL, no {@code joined} mode. */
    GENERIC("generic", false, false);

    /** The columns of an INSERT of a new claim; {@code outcome} is NULL. */
    static final String INSERT_COLUMNS = "(idem_key, status, owner_token, fingerprint, expires_at, outcome,"
            + " created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";

    /** The columns a record is read from, in the order {@code JpaIdempotencyStore} reads them. */
    static final String RECORD_COLUMNS = "status, owner_token, fingerprint, expires_at, outcome, created_at";

    private final String configName;
    private final boolean shipsDdl;
    private final boolean joinable;

    Dialect(String configName, boolean shipsDdl, boolean joinable) {
        this.configName = configName;
        this.shipsDdl = shipsDdl;
        this.joinable = joinable;
    }

    /** The value of {@code idempotency.jpa.dialect} that selects this dialect. */
    String configName() {
        return configName;
    }

    /** Whether the {@code joined} mode works on this database. */
    boolean joinable() {
        return joinable;
    }

    /**
     * Whether a JDBC query timeout bounds a statement's lock waits here without side effects. Not on H2,
     * whose {@code Statement.setQueryTimeout} sets the timeout of the whole session (it would stay on the
     * application's connection); there H2's own {@code LOCK_TIMEOUT} bounds lock waits.
     */
    boolean boundsWithQueryTimeout() {
        return this != H2;
    }

    /**
     * Whether the store bounds lock waits by cancelling a statement past its deadline ({@link
     * StatementWatchdog}) instead of a query timeout: on PostgreSQL, whose driver times each statement
     * with a shared {@code java.util.Timer} at a cost per statement, and cancels only a statement that
     * is still executing. Not on MariaDB/MySQL, where a query timeout is a server-side limit of the
     * statement and costs nothing, while a cancel is a {@code KILL QUERY} of whatever the connection
     * runs at that moment.
     */
    boolean boundsByCancelling() {
        return this == POSTGRESQL;
    }

    /**
     * The owner as the fence binds it, to match {@link #exactOwner()}: on Derby, which compares
     * {@code VARCHAR} values as if padded with spaces ({@code 'a ' = 'a'}), both sides get a final
     * {@code '.'}.
     */
    String ownerParameter(String owner) {
        return this == DERBY ? owner + "." : owner;
    }

    /**
     * The database's current time in epoch milliseconds, as an SQL expression, for the expiry
     * decisions the store makes in SQL (purge, takeover); {@code null} where the store has none it
     * trusts (Derby's {@code CURRENT_TIMESTAMP} is in the server JVM's local time zone; a generic
     * database is unknown), and there the node's clock alone decides.
     */
    String nowMillis() {
        return switch (this) {
            case POSTGRESQL, H2 -> "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)";
            case MYSQL -> "CAST(FLOOR(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3)) * 1000) AS SIGNED)";
            case DERBY, GENERIC -> null;
        };
    }

    /** Whether the jar ships DDL for this database. */
    boolean shipsDdl() {
        return shipsDdl;
    }

    /**
     * The claim statement: inserts the new IN_PROGRESS row (parameters as {@link #INSERT_COLUMNS}) and
     * reports a key that exists without an error that the caller's transaction could not survive. On
     * PostgreSQL it also returns the existing row in the same round trip (parameter 8: the key again):
     * one row {@code (true, NULL...)} when inserted, {@code (false, record columns)} when the key
     * exists, none when the existing row is not visible to the statement's snapshot (it committed while
     * the statement waited for it); see {@link #returnsExisting()}. The lookup runs only when nothing
     * was inserted (a one-time filter), so a new key costs the INSERT alone.
     */
    String claim() {
        String table = JpaIdempotencyStore.TABLE;
        return switch (this) {
            case POSTGRESQL -> "WITH inserted AS (INSERT INTO " + table + " " + INSERT_COLUMNS
                    + " ON CONFLICT (idem_key) DO NOTHING RETURNING idem_key)"
                    + " SELECT TRUE, NULL, NULL, NULL, NULL, NULL, NULL FROM inserted"
                    + " UNION ALL SELECT FALSE, " + RECORD_COLUMNS + " FROM " + table
                    + " WHERE idem_key = ? AND NOT EXISTS (SELECT 1 FROM inserted)";
            case MYSQL -> "INSERT IGNORE INTO " + table + " " + INSERT_COLUMNS;
            default -> "INSERT INTO " + table + " " + INSERT_COLUMNS;
        };
    }

    /**
     * Whether completions and releases can tell every node ({@link SettlementNotifier}): PostgreSQL's
     * {@code pg_notify}. Elsewhere waiters for calls of other nodes poll.
     */
    boolean notifiesSettlements() {
        return this == POSTGRESQL;
    }

    /** Whether {@link #claim()} is a query that returns the existing row (else an update count). */
    boolean returnsExisting() {
        return this == POSTGRESQL;
    }

    /** Whether a failed plain INSERT means that the key exists (SQLState class 23, integrity constraint). */
    boolean isDuplicateKey(SQLException e) {
        if (this == POSTGRESQL || this == MYSQL) {
            return false; // their claim never fails on a duplicate
        }
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s.getSQLState() != null && s.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The read of the existing row after a claim found the key. In the {@code joined} mode on
     * MariaDB/MySQL it reads the newest committed row ({@code LOCK IN SHARE MODE}): a plain read would
     * see the caller's REPEATABLE READ snapshot, which may predate the row. (The duplicate's INSERT
     * IGNORE has already taken that shared lock, so it adds no lock.)
     */
    String read(boolean joined) {
        String sql = "SELECT " + RECORD_COLUMNS + " FROM " + JpaIdempotencyStore.TABLE + " WHERE idem_key = ?";
        return joined && this == MYSQL ? sql + " LOCK IN SHARE MODE" : sql;
    }

    /**
     * The owner column as the fence of complete and release compares it: byte for byte, as {@code
     * String.equals} does. PostgreSQL and H2 compare {@code VARCHAR} exactly; on MariaDB/MySQL the
     * column's collation (by default case-insensitive, trailing spaces ignored) would apply, so there it
     * is compared as binary; Derby ignores trailing spaces, so there both sides end in {@code '.'} (see
     * {@link #ownerParameter}). (Only the comparison: the row is found by the primary key.)
     */
    String exactOwner() {
        return switch (this) {
            case MYSQL -> "CAST(owner_token AS BINARY)";
            case DERBY -> "owner_token || '.'";
            default -> "owner_token";
        };
    }

    /** The statements of the shipped DDL; empty for {@link #GENERIC}. */
    List<String> ddl() {
        if (!shipsDdl) {
            return List.of();
        }
        String resource = ddlResource();
        String text;
        try (InputStream in = Dialect.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String s = current.toString().strip();
                statements.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        return statements;
    }

    /** Where the shipped DDL is in the jar. */
    String ddlResource() {
        return "META-INF/idempotency/jpa/" + configName + ".sql";
    }

    /** The dialect of a JDBC database product name ({@code DatabaseMetaData.getDatabaseProductName}). */
    static Dialect ofProduct(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return MYSQL;
        }
        if (p.equals("h2")) {
            return H2;
        }
        if (p.contains("derby")) {
            return DERBY;
        }
        return GENERIC;
    }

    /** The dialect named by {@code idempotency.jpa.dialect}. */
    static Dialect ofConfig(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (Dialect d : values()) {
            if (d.configName.equals(v) || (d == MYSQL && v.equals("mariadb"))) {
                return d;
            }
        }
        throw new IdempotencyConfigurationException("Config key '" + key + "' is '" + value
                + "'; use postgresql, mysql (also for MariaDB), h2, derby or generic, or remove it to detect the"
                + " database.");
    }
}
