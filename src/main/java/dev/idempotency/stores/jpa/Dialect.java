package dev.idempotency.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the JPA store needs to know about the database beyond portable JPA: the DDL, and whether an
 * INSERT can skip an existing key without raising an error.
 */
enum Dialect {
    /** PostgreSQL: any error aborts the transaction, so a claim must never raise a duplicate key. */
    POSTGRESQL("postgresql", " ON CONFLICT (idem_key) DO NOTHING", "INSERT INTO "),
    /** MariaDB and MySQL (InnoDB): a duplicate key fails only the statement. */
    MYSQL("mysql", "", "INSERT IGNORE INTO "),
    /** H2 2.x: a duplicate key fails only the statement; no conflict-free INSERT outside compatibility modes. */
    H2("h2", null, null),
    /** Any other database: portable JPA only, no shipped DDL. */
    GENERIC("generic", null, null);

    private static final String COLUMNS =
            "(idem_key, status, owner_token, fingerprint, expires_at, outcome, created_at, updated_at)";

    private final String configName;
    private final String conflictClause;
    private final String insertVerb;

    Dialect(String configName, String conflictClause, String insertVerb) {
        this.configName = configName;
        this.conflictClause = conflictClause;
        this.insertVerb = insertVerb;
    }

    /** The value of {@code idempotency.jpa.dialect} that selects this dialect. */
    String configName() {
        return configName;
    }

    /**
     * An INSERT of a new claim that inserts nothing (update count 0) when the key exists, instead of
     * failing, or {@code null} if the database has none.
     */
    String insertIfAbsent() {
        if (insertVerb == null) {
            return null;
        }
        return insertVerb + IdempotencyRecordEntity.TABLE + " " + COLUMNS + " VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?6)"
                + conflictClause;
    }

    /**
     * The owner column as the fence of complete and release compares it: byte for byte, as {@code
     * String.equals} does. PostgreSQL and H2 compare {@code VARCHAR} exactly; on MariaDB/MySQL the
     * column's collation (by default case-insensitive, trailing spaces ignored) would apply, so there
     * it is compared as binary. (Only the comparison: the row is found by the primary key.)
     */
    String exactOwner() {
        return this == MYSQL ? "CAST(owner_token AS BINARY)" : "owner_token";
    }

    /** A plain INSERT of a new claim, for the JDBC path of {@code joined} mode on H2. */
    static String plainInsert() {
        return "INSERT INTO " + IdempotencyRecordEntity.TABLE + " " + COLUMNS + " VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    }

    /** The statements of the shipped DDL, or an empty list for {@link #GENERIC}. */
    List<String> ddl() {
        if (this == GENERIC) {
            return List.of();
        }
        String resource = "META-INF/idempotency/jpa/" + configName + ".sql";
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
                + "'; use postgresql, mysql (also for MariaDB), h2 or generic, or remove it to detect the database.");
    }
}
