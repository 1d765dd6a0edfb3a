package dev.idempotency.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.internal.stores.jpa.TestDatabases;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link IdempotencyRecordEntity} read with JPQL by Hibernate and EclipseLink (Java SE, the persistence
 * units of src/test/resources/META-INF/persistence.xml) from rows that the real JPA store wrote: on
 * PostgreSQL and MariaDB in a schema (database) of this test's own, {@value #SCHEMA}, and on H2 and
 * Derby in memory.
 */
@Tag("services")
class IdempotencyRecordEntityTest {

    /** The PostgreSQL schema and MariaDB database of this test (other tests use the table in theirs). */
    static final String SCHEMA = "idem_jpa_entity";

    /** PostgreSQL schemas of the validation test: the shipped DDL as is, and a table that drifted from it. */
    private static final String DDL_SCHEMA = "idem_jpa_entity_ddl";

    private static final String DRIFT_SCHEMA = "idem_jpa_entity_drift";

    private static final String PG_TIMEOUTS = "&connectTimeout=10&socketTimeout=60";
    private static final String MARIADB_TIMEOUTS = "?connectTimeout=10000&socketTimeout=60000";

    /** One database: the store writing into it and the connection properties of the persistence units. */
    record Db(
            String name, HikariDataSource ds, MutableClock clock, JpaIdempotencyStore store, Map<String, String> jdbc) {
        void close() {
            store.close();
            ds.close();
        }
    }

    /** One persistence unit on one database. */
    record Unit(String provider, Db db, EntityManagerFactory emf) {
        @Override
        public String toString() {
            return provider + " on " + db.name;
        }
    }

    private static final List<Db> DATABASES = new ArrayList<>();
    private static final List<Unit> UNITS = new ArrayList<>();

    static synchronized Stream<Unit> units() {
        if (UNITS.isEmpty()) {
            String postgres = TestServices.postgresUrl(SCHEMA) + PG_TIMEOUTS;
            DATABASES.add(db("postgresql", TestDatabases.postgres(SCHEMA), jdbc(postgres, "postgres", "")));
            String mariadb = "jdbc:mariadb://127.0.0.1:3306/" + TestServices.mariadbDatabase(SCHEMA) + MARIADB_TIMEOUTS;
            DATABASES.add(db("mariadb", TestDatabases.mariadb(SCHEMA), jdbc(mariadb, "root", "")));
            String h2 = "jdbc:h2:mem:records-entity;DB_CLOSE_DELAY=-1";
            DATABASES.add(db("h2", TestDatabases.h2("records-entity"), jdbc(h2, "sa", "")));
            // Hibernate's validation rejects Derby's BLOB outcome column (it expects VARBINARY); reads work.
            Map<String, String> derby = new HashMap<>(jdbc("jdbc:derby:memory:records-entity", "app", "app"));
            derby.put("hibernate.hbm2ddl.auto", "none");
            DATABASES.add(db("derby", TestDatabases.derby("records-entity"), derby));
            for (Db db : DATABASES) {
                for (String provider : List.of("hibernate", "eclipselink")) {
                    UNITS.add(new Unit(provider, db, emf(provider, db.jdbc)));
                }
            }
        }
        return UNITS.stream();
    }

    /** A database with the store (it creates the table from the shipped DDL) on a clock of its own. */
    private static Db db(String name, HikariDataSource ds, Map<String, String> jdbc) {
        MutableClock clock = new MutableClock();
        return new Db(name, ds, clock, TestDatabases.store(ds, clock, Map.of()), jdbc);
    }

    private static Map<String, String> jdbc(String url, String user, String password) {
        return Map.of(
                "jakarta.persistence.jdbc.url", url,
                "jakarta.persistence.jdbc.user", user,
                "jakarta.persistence.jdbc.password", password);
    }

    private static EntityManagerFactory emf(String provider, Map<String, String> jdbc) {
        return Persistence.createEntityManagerFactory("records-" + provider, jdbc);
    }

    @AfterAll
    static synchronized void close() {
        UNITS.forEach(u -> u.emf.close());
        DATABASES.forEach(Db::close);
        UNITS.clear();
        DATABASES.clear();
    }

    /**
     * What the store wrote, from {@code t0} (milliseconds): {@code runningOld} claimed at t0 for 10
     * minutes; {@code done1} claimed at +1 min and completed at +2 min with 5 bytes for an hour; {@code
     * runningNew} claimed at +30 min for 10 minutes; {@code done2} claimed at +61 min and completed at +62
     * min with 3 bytes for a day.
     */
    record Fixture(long t0, String runningOld, String done1, String runningNew, String done2) {}

    private static final long MINUTE = Duration.ofMinutes(1).toMillis();

    /** Empties the table and has the store write {@link Fixture}'s records. */
    private static Fixture write(Db db) {
        try (Connection c = db.ds.getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM " + JpaIdempotencyStore.TABLE);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot empty the table on " + db.name + " before writing the records: " + e, e);
        }
        String run = db.name + "-" + System.nanoTime();
        Fixture f = new Fixture(
                db.clock.instant().toEpochMilli(),
                Hashing.sha256Hex(run + "-running-old"),
                Hashing.sha256Hex(run + "-done-1"),
                Hashing.sha256Hex(run + "-running-new"),
                Hashing.sha256Hex(run + "-done-2"));
        JpaIdempotencyStore store = db.store;
        assertThat(store.claim(f.runningOld, "owner-old", "fp", Duration.ofMinutes(10))
                        .claimed())
                .isTrue();
        db.clock.advance(Duration.ofMinutes(1));
        assertThat(store.claim(f.done1, "owner-1", "fp", Duration.ofMinutes(10)).claimed())
                .isTrue();
        db.clock.advance(Duration.ofMinutes(1));
        assertThat(store.complete(f.done1, "owner-1", bytes("hello"), Duration.ofHours(1)))
                .isTrue();
        db.clock.advance(Duration.ofMinutes(28));
        assertThat(store.claim(f.runningNew, "owner-new", "fp", Duration.ofMinutes(10))
                        .claimed())
                .isTrue();
        db.clock.advance(Duration.ofMinutes(31));
        assertThat(store.claim(f.done2, "owner-2", "fp", Duration.ofMinutes(10)).claimed())
                .isTrue();
        db.clock.advance(Duration.ofMinutes(1));
        assertThat(store.complete(f.done2, "owner-2", bytes("abc"), Duration.ofDays(1)))
                .isTrue();
        // Later writes of this fixture's rows (the cache test) happen after every recorded instant.
        db.clock.advance(Duration.ofHours(1));
        return f;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T read(Unit unit, Function<EntityManager, T> query) {
        EntityManager em = unit.emf.createEntityManager();
        try {
            return query.apply(em);
        } finally {
            em.close();
        }
    }

    @ParameterizedTest
    @MethodSource("units")
    void findsARecordByKeyWithEveryColumnAsTheStoreWroteIt(Unit unit) {
        Fixture f = write(unit.db);

        IdempotencyRecordEntity done = read(unit, em -> em.createQuery(
                        "SELECT r FROM IdempotencyRecord r WHERE r.recordKey = :key", IdempotencyRecordEntity.class)
                .setParameter("key", f.done1)
                .getSingleResult());
        assertThat(done.getRecordKey()).isEqualTo(f.done1);
        assertThat(done.getStatus()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(done.getCreatedAt()).isEqualTo(f.t0 + MINUTE);
        assertThat(done.getUpdatedAt()).isEqualTo(f.t0 + 2 * MINUTE);
        assertThat(done.getExpiresAt()).isEqualTo(f.t0 + 2 * MINUTE + 60 * MINUTE);
        assertThat(done.getStoredBytes()).isEqualTo(5);

        IdempotencyRecordEntity running = read(unit, em -> em.find(IdempotencyRecordEntity.class, f.runningOld));
        assertThat(running.getStatus()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(running.getCreatedAt()).isEqualTo(f.t0);
        assertThat(running.getUpdatedAt()).isEqualTo(f.t0);
        assertThat(running.getExpiresAt()).isEqualTo(f.t0 + 10 * MINUTE);
        assertThat(running.getStoredBytes()).isZero();

        IdempotencyRecordEntity missing =
                read(unit, em -> em.find(IdempotencyRecordEntity.class, Hashing.sha256Hex("no such key")));
        assertThat(missing).isNull();
    }

    @ParameterizedTest
    @MethodSource("units")
    void countsRecordsByStatus(Unit unit) {
        write(unit.db);

        List<Object[]> rows = read(unit, em -> em.createQuery(
                        "SELECT r.status, COUNT(r) FROM IdempotencyRecord r GROUP BY r.status", Object[].class)
                .getResultList());
        Map<RecordStatus, Long> counts = new EnumMap<>(RecordStatus.class);
        for (Object[] row : rows) {
            counts.put((RecordStatus) row[0], ((Number) row[1]).longValue());
        }
        assertThat(counts).isEqualTo(Map.of(RecordStatus.IN_PROGRESS, 2L, RecordStatus.COMPLETED, 2L));

        long completed = read(unit, em -> em.createQuery(
                        "SELECT COUNT(r) FROM IdempotencyRecord r WHERE r.status = :status", Long.class)
                .setParameter("status", RecordStatus.COMPLETED)
                .getSingleResult());
        assertThat(completed).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("units")
    void answersDashboardQueries(Unit unit) {
        Fixture f = write(unit.db);

        // The docs' example: the oldest running claims that are still live at "now".
        String oldestRunning = "SELECT r.recordKey, r.createdAt FROM IdempotencyRecord r"
                + " WHERE r.status = :status AND r.expiresAt > :now ORDER BY r.createdAt";
        Function<Long, List<Object[]>> running = now -> read(unit, em -> em.createQuery(oldestRunning, Object[].class)
                .setParameter("status", RecordStatus.IN_PROGRESS)
                .setParameter("now", now)
                .setMaxResults(20)
                .getResultList());
        List<Object[]> atFiveMinutes = running.apply(f.t0 + 5 * MINUTE);
        assertThat(atFiveMinutes).extracting(row -> row[0]).containsExactly(f.runningOld, f.runningNew);
        assertThat(((Number) atFiveMinutes.get(0)[1]).longValue()).isEqualTo(f.t0);
        assertThat(running.apply(f.t0 + 20 * MINUTE))
                .as("the older claim's lease ended at +10 min")
                .extracting(row -> row[0])
                .containsExactly(f.runningNew);

        // Completed per hour: the records whose last write (the completion) falls in each hour.
        String perHour = "SELECT COUNT(r) FROM IdempotencyRecord r WHERE r.status = :status"
                + " AND r.updatedAt >= :from AND r.updatedAt < :to";
        List<Long> completedPerHour = new ArrayList<>();
        for (int hour = 0; hour < 3; hour++) {
            long from = f.t0 + hour * 60 * MINUTE;
            completedPerHour.add(read(unit, em -> em.createQuery(perHour, Long.class)
                    .setParameter("status", RecordStatus.COMPLETED)
                    .setParameter("from", from)
                    .setParameter("to", from + 60 * MINUTE)
                    .getSingleResult()));
        }
        assertThat(completedPerHour).containsExactly(1L, 1L, 0L);

        // Records that stop being live before a given instant (lease or retention end).
        String expiringBefore = "SELECT r.recordKey FROM IdempotencyRecord r WHERE r.expiresAt < :at";
        List<String> withinAnHour = read(unit, em -> em.createQuery(expiringBefore, String.class)
                .setParameter("at", f.t0 + 60 * MINUTE)
                .getResultList());
        assertThat(withinAnHour).containsExactlyInAnyOrder(f.runningOld, f.runningNew);
        List<String> withinTwoHours = read(unit, em -> em.createQuery(expiringBefore, String.class)
                .setParameter("at", f.t0 + 120 * MINUTE)
                .getResultList());
        assertThat(withinTwoHours).containsExactlyInAnyOrder(f.runningOld, f.runningNew, f.done1);
    }

    /**
     * The store changes rows behind the provider's back, so a record read again must show the change:
     * without {@code @Cacheable(false)} EclipseLink's shared cache would answer the old IN_PROGRESS row.
     */
    @ParameterizedTest
    @MethodSource("units")
    void seesTheStoresLaterWritesOnTheNextRead(Unit unit) {
        Fixture f = write(unit.db);
        RecordStatus before = read(
                unit, em -> em.find(IdempotencyRecordEntity.class, f.runningNew).getStatus());
        assertThat(before).isEqualTo(RecordStatus.IN_PROGRESS);

        assertThat(unit.db.store.complete(f.runningNew, "owner-new", bytes("later"), Duration.ofHours(1)))
                .isTrue();

        IdempotencyRecordEntity again = read(unit, em -> em.find(IdempotencyRecordEntity.class, f.runningNew));
        assertThat(again.getStatus()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(again.getStoredBytes()).isEqualTo(5);
        List<Object[]> byQuery = read(unit, em -> em.createQuery(
                        "SELECT r.status, r.updatedAt FROM IdempotencyRecord r WHERE r.recordKey = :key",
                        Object[].class)
                .setParameter("key", f.runningNew)
                .getResultList());
        assertThat(byQuery.get(0)[0]).isEqualTo(RecordStatus.COMPLETED);
        assertThat(((Number) byQuery.get(0)[1]).longValue()).isEqualTo(unit.db.clock.millis());
    }

    @ParameterizedTest
    @MethodSource("units")
    void refusesToPersistOrRemoveARecord(Unit unit) {
        Fixture f = write(unit.db);
        EntityManager em = unit.emf.createEntityManager();
        try {
            em.getTransaction().begin();
            IdempotencyRecordEntity found = em.find(IdempotencyRecordEntity.class, f.done1);
            assertThatThrownBy(() -> {
                        em.remove(found);
                        em.flush();
                    })
                    .hasStackTraceContaining("IdempotencyRecordEntity is read-only");
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.getTransaction().begin();
            assertThatThrownBy(() -> {
                        em.persist(new IdempotencyRecordEntity());
                        em.flush();
                    })
                    .hasStackTraceContaining("IdempotencyRecordEntity is read-only");
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
        IdempotencyRecordEntity kept = read(unit, em2 -> em2.find(IdempotencyRecordEntity.class, f.done1));
        assertThat(kept).as("the record whose remove was refused").isNotNull();
        long rows = read(unit, em2 -> em2.createQuery("SELECT COUNT(r) FROM IdempotencyRecord r", Long.class)
                .getSingleResult());
        assertThat(rows).isEqualTo(4);
    }

    /**
     * Hibernate's {@code hbm2ddl.auto=validate} (the persistence unit's setting) accepts the mapping on
     * a table made by the shipped PostgreSQL DDL, and rejects a table that drifted from it: so the
     * validation checks the mapping against that DDL, column by column.
     */
    @Test
    void hibernateValidatesTheMappingAgainstTheShippedPostgresDdl() {
        createTable(DDL_SCHEMA, null);
        emf("hibernate", jdbc(TestServices.postgresUrl(DDL_SCHEMA) + PG_TIMEOUTS, "postgres", ""))
                .close();

        createTable(DRIFT_SCHEMA, "ALTER TABLE idempotency_record ALTER COLUMN expires_at TYPE TIMESTAMP USING NULL");
        Map<String, String> drifted = jdbc(TestServices.postgresUrl(DRIFT_SCHEMA) + PG_TIMEOUTS, "postgres", "");
        assertThatThrownBy(() -> emf("hibernate", drifted).close())
                .hasStackTraceContaining("Schema-validation")
                .hasStackTraceContaining("expires_at");
    }

    /** Creates a PostgreSQL schema afresh with the table of the shipped DDL, then runs {@code change}. */
    private static void createTable(String schema, String change) {
        List<String> statements = new ArrayList<>();
        statements.add("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        statements.add("CREATE SCHEMA " + schema);
        statements.addAll(TestDatabases.postgresDdl());
        if (change != null) {
            statements.add(change);
        }
        String url = TestServices.postgresUrl(schema) + PG_TIMEOUTS;
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the table in schema " + schema + " at " + url + ": " + e, e);
        }
    }
}
