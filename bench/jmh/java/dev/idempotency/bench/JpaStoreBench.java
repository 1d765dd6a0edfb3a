package dev.idempotency.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.internal.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.internal.stores.jpa.JpaStores;
import dev.idempotency.internal.stores.jpa.JpaStoreSettings;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The JPA store on PostgreSQL (127.0.0.1, schema {@code idem_jpa_bench}, {@code separate} mode, a
 * HikariCP pool as large as the group's threads per member) against its physical floor and against
 * Apache Camel's {@code JdbcMessageIdRepository} on the same database. Each JMH group runs its three
 * members <em>at the same time</em>, with the same number of threads each ({@code -tg n,n,n}), so
 * that all three see the same machine and database load and their ratio is taken side by side:
 *
 * <ul>
 *   <li>{@code newKey}: the store's claim of a new key; the floor, one autocommitted {@code INSERT} of
 *       the same row on a connection of its own per thread; Camel's {@code add} of a new id;
 *   <li>{@code duplicate}: the store's claim of a COMPLETED key (a replay); the floor, {@code INSERT ...
 *       ON CONFLICT DO NOTHING} of an existing key; Camel's {@code add} of an existing id (SELECT COUNT,
 *       then nothing, in a transaction);
 *   <li>{@code claimComplete}: the store's claim and complete of a new key (what a guarded call costs
 *       the store); the one-{@code INSERT} floor; and the same physical work in raw JDBC (INSERT, then
 *       the fenced UPDATE, each autocommitted);
 *   <li>{@code notices}: what PostgreSQL's settlement notices cost the owner: the store's claim and
 *       complete with {@code idempotency.jpa.notify-settlements=true} (each completion is handed to
 *       the store's notifier thread, which sends the keys in batches, and the store listens, as a node
 *       with waiting duplicates does); the same with {@code false}; and the raw INSERT, then the fenced
 *       UPDATE. Only the notifier takes PostgreSQL's lock on notifying commits, once per batch.
 * </ul>
 *
 * <pre>bash bench/jpa-store.sh</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
public class JpaStoreBench {

    private static final String SCHEMA = "idem_jpa_bench";
    private static final int DUPLICATES = 1000;
    private static final String CAMEL_PROCESSOR = "bench";
    private static final String RAW_INSERT = "INSERT INTO idempotency_record (idem_key, status, owner_token,"
            + " fingerprint, expires_at, outcome, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    private static final String RAW_ON_CONFLICT = RAW_INSERT + " ON CONFLICT (idem_key) DO NOTHING";
    private static final String RAW_COMPLETE = "UPDATE idempotency_record SET status = 'COMPLETED', expires_at = ?,"
            + " outcome = ?, updated_at = ? WHERE idem_key = ? AND owner_token = ? AND status = 'IN_PROGRESS'";
    private static final byte[] OUTCOME = "{}".getBytes(StandardCharsets.UTF_8);

    private HikariDataSource storePool;
    private HikariDataSource camelPool;
    private HikariDataSource notifiedPool;
    private HikariDataSource silentPool;
    private JpaIdempotencyStore store;
    /** The {@code notices} group's stores: settlement notices on, and off. */
    private JpaIdempotencyStore notifiedStore;

    private JpaIdempotencyStore silentStore;
    private JdbcMessageIdRepository camel;
    private final AtomicLong counter = new AtomicLong();
    private final String[] existing = new String[DUPLICATES];
    private final String run = Long.toString(System.nanoTime(), 36);

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        int threads = Arrays.stream(params.getThreadGroups()).max().orElse(1);
        try (Connection c = DriverManager.getConnection(TestServices.postgresUrl(), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        }
        storePool = pool(threads);
        camelPool = pool(threads);
        notifiedPool = pool(threads + 2); // the store keeps one connection to listen and one to notify
        silentPool = pool(threads);
        store = JpaStores.resourceLocal(
                storePool, JpaStoreSettings.from(ConfigLookup.none()), Clock.systemUTC());
        notifiedStore = JpaStores.resourceLocal(notifiedPool, notices(true), Clock.systemUTC());
        silentStore = JpaStores.resourceLocal(silentPool, notices(false), Clock.systemUTC());
        if (!notifiedStore.notifySettlements(key -> {})) {
            throw new IllegalStateException("the store does not listen for settlement notices");
        }
        try (Connection c = storePool.getConnection();
                Statement s = c.createStatement()) {
            // Camel's own DDL; its create-if-missing probe fails on PostgreSQL (the failed probe aborts
            // the transaction that should then create the table).
            s.execute("CREATE TABLE IF NOT EXISTS CAMEL_MESSAGEPROCESSED (processorName VARCHAR(255),"
                    + " messageId VARCHAR(100), createdAt TIMESTAMP, PRIMARY KEY (processorName, messageId))");
            s.execute("TRUNCATE idempotency_record");
            s.execute("TRUNCATE CAMEL_MESSAGEPROCESSED");
            s.execute("VACUUM ANALYZE idempotency_record");
        }
        camel = new JdbcMessageIdRepository(camelPool, CAMEL_PROCESSOR);
        camel.setCreateTableIfNotExists(false);
        camel.start();
        for (int i = 0; i < DUPLICATES; i++) {
            existing[i] = Hashing.sha256Hex("bench-existing-" + run + "-" + i);
            store.claim(existing[i], "seed", "fp", Duration.ofHours(1));
            store.complete(existing[i], "seed", OUTCOME, Duration.ofHours(1));
            camel.add(existing[i]);
        }
        // Statistics of the seeded tables, as autovacuum would gather them: without them (autovacuum is
        // off on the benchmark machine), the plans prepared while the tables were empty scan them
        // sequentially for the rest of the trial (docs/jpa-store.md, "How a claim works").
        try (Connection c = storePool.getConnection();
                Statement s = c.createStatement()) {
            s.execute("ANALYZE idempotency_record");
            s.execute("ANALYZE CAMEL_MESSAGEPROCESSED");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        camel.stop();
        store.close();
        notifiedStore.close();
        silentStore.close();
        storePool.close();
        camelPool.close();
        notifiedPool.close();
        silentPool.close();
    }

    private static JpaStoreSettings notices(boolean on) {
        return JpaStoreSettings.from(
                ConfigLookup.of(java.util.Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, Boolean.toString(on))));
    }

    private static HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestServices.postgresUrl(SCHEMA));
        config.setUsername("postgres");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        return new HikariDataSource(config);
    }

    /** A connection of its own per floor thread, autocommitted, with its statements prepared once. */
    @State(Scope.Thread)
    public static class Raw {
        Connection connection;
        PreparedStatement insert;
        PreparedStatement onConflict;
        PreparedStatement complete;

        @Setup(Level.Trial)
        public void open() throws SQLException {
            connection = DriverManager.getConnection(TestServices.postgresUrl(SCHEMA), "postgres", "");
            insert = connection.prepareStatement(RAW_INSERT);
            onConflict = connection.prepareStatement(RAW_ON_CONFLICT);
            complete = connection.prepareStatement(RAW_COMPLETE);
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            connection.close();
        }
    }

    private String newKey() {
        return Hashing.sha256Hex("bench-" + run + "-" + counter.incrementAndGet());
    }

    private String existingKey() {
        return existing[(int) (counter.incrementAndGet() % DUPLICATES)];
    }

    /** The store's claim of a new key. */
    @Benchmark
    @Group("newKey")
    public boolean storeClaim() {
        return store.claim(newKey(), "owner", "fp", Duration.ofMinutes(1)).claimed();
    }

    /** The floor of a new key: one autocommitted INSERT of the same row. */
    @Benchmark
    @Group("newKey")
    public int rawInsert(Raw raw) throws SQLException {
        return insert(raw, newKey());
    }

    /** Camel's add of a new id: SELECT COUNT, then INSERT, in a transaction. */
    @Benchmark
    @Group("newKey")
    public boolean camelAdd() {
        return camel.add(newKey());
    }

    /** The store's claim of a COMPLETED key: the replay's store work. */
    @Benchmark
    @Group("duplicate")
    public boolean storeDuplicate() {
        return store.claim(existingKey(), "owner", "fp", Duration.ofMinutes(1)).claimed();
    }

    /** The floor of a duplicate: {@code INSERT ... ON CONFLICT DO NOTHING} of an existing key. */
    @Benchmark
    @Group("duplicate")
    public int rawOnConflictDuplicate(Raw raw) throws SQLException {
        bindClaim(raw.onConflict, existingKey(), System.currentTimeMillis());
        return raw.onConflict.executeUpdate();
    }

    /** Camel's add of an existing id. */
    @Benchmark
    @Group("duplicate")
    public boolean camelDuplicate() {
        return camel.add(existingKey());
    }

    /** The store's claim and complete of a new key: what one guarded call costs the store. */
    @Benchmark
    @Group("claimComplete")
    public boolean storeClaimComplete() {
        String key = newKey();
        store.claim(key, "owner", "fp", Duration.ofMinutes(1));
        return store.complete(key, "owner", OUTCOME, Duration.ofHours(1));
    }

    /** The one-INSERT floor, at the same time as {@link #storeClaimComplete}. */
    @Benchmark
    @Group("claimComplete")
    public int rawInsertOnce(Raw raw) throws SQLException {
        return insert(raw, newKey());
    }

    /** The same physical work as claim and complete in raw JDBC: INSERT, then the fenced UPDATE, autocommitted. */
    @Benchmark
    @Group("claimComplete")
    public int rawInsertThenUpdate(Raw raw) throws SQLException {
        String key = newKey();
        long now = System.currentTimeMillis();
        insert(raw, key);
        raw.complete.setLong(1, now + 3_600_000);
        raw.complete.setBytes(2, OUTCOME);
        raw.complete.setLong(3, now);
        raw.complete.setString(4, key);
        raw.complete.setString(5, "owner");
        return raw.complete.executeUpdate();
    }

    /**
     * The store's claim and complete, the complete's notice sent by the notifier, which the store itself hears
     * (it listens, as every node does once a duplicate waits).
     */
    @Benchmark
    @Group("notices")
    public boolean storeNotified() {
        String key = newKey();
        notifiedStore.claim(key, "owner", "fp", Duration.ofMinutes(1));
        return notifiedStore.complete(key, "owner", OUTCOME, Duration.ofHours(1));
    }

    /** The same on a store with {@code idempotency.jpa.notify-settlements=false}, at the same time. */
    @Benchmark
    @Group("notices")
    public boolean storeSilent() {
        String key = newKey();
        silentStore.claim(key, "owner", "fp", Duration.ofMinutes(1));
        return silentStore.complete(key, "owner", OUTCOME, Duration.ofHours(1));
    }

    /** Raw JDBC: INSERT, then the fenced UPDATE, autocommitted, at the same time. */
    @Benchmark
    @Group("notices")
    public int rawPair(Raw raw) throws SQLException {
        return rawInsertThenUpdate(raw);
    }

    private static int insert(Raw raw, String key) throws SQLException {
        bindClaim(raw.insert, key, System.currentTimeMillis());
        return raw.insert.executeUpdate();
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
