package dev.idempotency.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.core.Hashing;
import dev.idempotency.core.Settings;
import dev.idempotency.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.stores.jpa.JpaStoreSettings;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JPA store's claim on PostgreSQL (127.0.0.1, schema {@code idem_jpa_bench}) against the floor: a
 * raw autocommitted JDBC INSERT of the same row. New keys: every call a fresh key. Duplicates: every
 * call a key that is already COMPLETED (the store takes its INSERT ... ON CONFLICT DO NOTHING, then the
 * SELECT ... FOR UPDATE; the raw floor is the INSERT failing on the unique key). A whole new key (claim
 * and complete, what an interceptor call costs the store) is measured against a second floor: the same
 * physical work in raw JDBC, INSERT of the claim and commit, then UPDATE of that row to COMPLETED and
 * commit; the two run at the same time in one JMH group ({@code claimComplete}).
 *
 * <pre>mvn -Pbench verify -DskipTests -DskipITs -Djmh.args=JpaStoreBench</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Threads(4)
public class JpaStoreBench {

    private static final String SCHEMA = "idem_jpa_bench";
    private static final int DUPLICATES = 1000;
    private static final String RAW_INSERT = "INSERT INTO idempotency_record (idem_key, status, owner_token,"
            + " fingerprint, expires_at, outcome, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    private static final String RAW_COMPLETE = "UPDATE idempotency_record SET status = 'COMPLETED', expires_at = ?,"
            + " outcome = ?, updated_at = ? WHERE idem_key = ? AND owner_token = ? AND status = 'IN_PROGRESS'";
    private static final byte[] OUTCOME = "{}".getBytes(StandardCharsets.UTF_8);

    private HikariDataSource ds;
    private JpaIdempotencyStore store;
    private final AtomicLong counter = new AtomicLong();
    private final String[] existing = new String[DUPLICATES];
    private final String run = Long.toString(System.nanoTime(), 36);

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + SCHEMA);
        config.setUsername("postgres");
        config.setMaximumPoolSize(8);
        ds = new HikariDataSource(config);
        store = JpaIdempotencyStore.resourceLocal(
                ds, new JpaStoreSettings(Settings.none()), Clock.systemUTC(), Map.of());
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE idempotency_record");
        }
        for (int i = 0; i < DUPLICATES; i++) {
            existing[i] = Hashing.sha256Hex("bench-existing-" + run + "-" + i);
            store.claim(existing[i], "seed", "fp", Duration.ofHours(1));
            store.complete(existing[i], "seed", "{}".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
        ds.close();
    }

    private String newKey() {
        return Hashing.sha256Hex("bench-" + run + "-" + counter.incrementAndGet());
    }

    private String existingKey() {
        return existing[(int) (counter.incrementAndGet() % DUPLICATES)];
    }

    /** The store's claim of a new key. */
    @Benchmark
    public boolean storeNewKey() {
        return store.claim(newKey(), "owner", "fp", Duration.ofMinutes(1)).claimed();
    }

    /** The floor for new keys: one autocommitted INSERT of the same row. */
    @Benchmark
    public int rawInsertNewKey() throws SQLException {
        return rawInsert(newKey());
    }

    /**
     * The store's claim of a new key, in the group {@code claim} at the same time as {@link
     * #rawInsertCommit} (2 threads each, see {@link #storeClaimComplete}).
     */
    @Benchmark
    @Group("claim")
    @GroupThreads(2)
    public boolean storeClaim() {
        return store.claim(newKey(), "owner", "fp", Duration.ofMinutes(1)).claimed();
    }

    /**
     * The floor for a claim in a transaction of its own: INSERT and an explicit commit, which is one
     * round trip more than the autocommitted {@link #rawInsertNewKey} (pgjdbc sends BEGIN with the
     * INSERT, then COMMIT on its own).
     */
    @Benchmark
    @Group("claim")
    @GroupThreads(2)
    public int rawInsertCommit() throws SQLException {
        String key = newKey();
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement(RAW_INSERT)) {
            c.setAutoCommit(false);
            bindClaim(insert, key, System.currentTimeMillis());
            int n = insert.executeUpdate();
            c.commit();
            return n;
        }
    }

    /**
     * The store's claim of a new key, then its completion: what one guarded call costs the store. Runs
     * in the group {@code claimComplete} at the same time as {@link #rawInsertThenUpdate}, 2 threads
     * each, so that both see the same machine load and the same database: on a shared machine their
     * ratio is much steadier than the ratio of two runs taken one after the other.
     */
    @Benchmark
    @Group("claimComplete")
    @GroupThreads(2)
    public boolean storeClaimComplete() {
        String key = newKey();
        store.claim(key, "owner", "fp", Duration.ofMinutes(1));
        return store.complete(key, "owner", OUTCOME, Duration.ofHours(1));
    }

    /**
     * The floor for claim and complete, the same physical work in raw JDBC on one pooled connection:
     * INSERT of the claim, commit, UPDATE of the row to COMPLETED, commit (two statements, two
     * transactions, as the store's {@code separate} mode).
     */
    @Benchmark
    @Group("claimComplete")
    @GroupThreads(2)
    public int rawInsertThenUpdate() throws SQLException {
        String key = newKey();
        long now = System.currentTimeMillis();
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement(RAW_INSERT);
                PreparedStatement update = c.prepareStatement(RAW_COMPLETE)) {
            c.setAutoCommit(false);
            bindClaim(insert, key, now);
            insert.executeUpdate();
            c.commit();
            update.setLong(1, now + 3_600_000);
            update.setBytes(2, OUTCOME);
            update.setLong(3, now);
            update.setString(4, key);
            update.setString(5, "owner");
            int n = update.executeUpdate();
            c.commit();
            return n;
        }
    }

    /** The store's claim of a key that is already COMPLETED (a replay). */
    @Benchmark
    public boolean storeDuplicate() {
        return store.claim(existingKey(), "owner", "fp", Duration.ofMinutes(1)).claimed();
    }

    /** The floor for duplicates: the same INSERT, failing on the unique key. */
    @Benchmark
    public int rawInsertDuplicate() throws SQLException {
        try {
            return rawInsert(existingKey());
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return 0;
            }
            throw e;
        }
    }

    private int rawInsert(String key) throws SQLException {
        long now = System.currentTimeMillis();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(RAW_INSERT)) {
            bindClaim(ps, key, now);
            return ps.executeUpdate();
        }
    }

    private static void bindClaim(PreparedStatement ps, String key, long now) throws SQLException {
        ps.setString(1, key);
        ps.setString(2, "IN_PROGRESS");
        ps.setString(3, "owner");
        ps.setString(4, "fp");
        ps.setLong(5, now + 60_000);
        ps.setLong(6, now);
        ps.setLong(7, now);
    }
}
