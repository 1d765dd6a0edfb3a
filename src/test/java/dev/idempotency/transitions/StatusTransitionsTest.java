package dev.idempotency.transitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.spi.Races;
import dev.idempotency.toolkit.StoreNodes;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.OptimisticLockException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Guarded transitions with Hibernate on PostgreSQL and H2: two persistence units ("nodes") on one
 * database, racing threads on both.
 */
@Tag("services")
class StatusTransitionsTest {

    /** One database: its two entity manager factories and their pools. */
    record Db(String name, List<EntityManagerFactory> nodes, List<HikariDataSource> pools) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final AtomicLong IDS = new AtomicLong(System.nanoTime());
    private static final List<Db> OPEN = new ArrayList<>();

    static synchronized Stream<Db> databases() throws Exception {
        if (OPEN.isEmpty()) {
            try (Connection c = DriverManager.getConnection(TestServices.postgresUrl(), "postgres", "");
                    Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA IF NOT EXISTS " + StoreNodes.PG_SCHEMA);
            }
            OPEN.add(db("postgresql", TestServices.postgresUrl(StoreNodes.PG_SCHEMA), "postgres"));
            OPEN.add(db("h2", "jdbc:h2:mem:toolkit-transitions;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa"));
        }
        return OPEN.stream();
    }

    private static Db db(String name, String url, String user) {
        List<HikariDataSource> pools = new ArrayList<>();
        List<EntityManagerFactory> nodes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HikariConfig hc = new HikariConfig();
            hc.setJdbcUrl(url);
            hc.setUsername(user);
            hc.setPassword("");
            hc.setMaximumPoolSize(8);
            HikariDataSource ds = new HikariDataSource(hc);
            Configuration cfg = new Configuration().addAnnotatedClass(Payment.class);
            cfg.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds);
            cfg.setProperty(AvailableSettings.HBM2DDL_AUTO, i == 0 ? "update" : "none");
            pools.add(ds);
            nodes.add(cfg.buildSessionFactory());
        }
        return new Db(name, nodes, pools);
    }

    @AfterAll
    static synchronized void close() {
        for (Db db : OPEN) {
            db.nodes.forEach(EntityManagerFactory::close);
            db.pools.forEach(HikariDataSource::close);
        }
        OPEN.clear();
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private static boolean advance(EntityManagerFactory emf, long id, PaymentStatus to) {
        Boolean moved = inTx(emf, em -> StatusTransitions.advance(em, Payment.class, id, to));
        return moved;
    }

    private static long newPayment(Db db) {
        long id = IDS.incrementAndGet();
        inTx(db.nodes.get(0), em -> {
            em.persist(new Payment(id, PaymentStatus.NEW));
            return null;
        });
        return id;
    }

    private static PaymentStatus status(Db db, long id) {
        return inTx(db.nodes.get(1), em -> em.find(Payment.class, id).status);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void advancesOnlyAlongDeclaredEdgesAndReportsWhetherThisCallMovedIt(Db db) {
        long id = newPayment(db);
        EntityManagerFactory a = db.nodes.get(0);
        EntityManagerFactory b = db.nodes.get(1);
        assertThat(advance(a, id, PaymentStatus.SHIPPED)).isFalse();
        assertThat(status(db, id)).isEqualTo(PaymentStatus.NEW);
        assertThat(advance(a, id, PaymentStatus.PAID)).isTrue();
        // The payment callback is retried: the repeat does not make the transition again.
        assertThat(advance(b, id, PaymentStatus.PAID)).isFalse();
        assertThat(advance(b, id, PaymentStatus.SHIPPED)).isTrue();
        assertThat(advance(a, id, PaymentStatus.CANCELLED)).isFalse();
        assertThat(status(db, id)).isEqualTo(PaymentStatus.SHIPPED);
        assertThat(advance(a, -1L, PaymentStatus.PAID)).isFalse();
        assertThatThrownBy(() -> advance(a, id, PaymentStatus.NEW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PaymentStatus.NEW has no allowed pre-state");
        // Explicit pre-states, for status types without GuardedStatus.
        Boolean explicit = inTx(
                a,
                em -> StatusTransitions.advance(
                        em, Payment.class, id, "status", Set.of(PaymentStatus.SHIPPED), PaymentStatus.CANCELLED));
        assertThat(explicit).isTrue();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aTransitionBumpsTheVersionSoAStaleCopyCannotOverwriteIt(Db db) {
        long id = newPayment(db);
        EntityManager stale = db.nodes.get(1).createEntityManager();
        try {
            stale.getTransaction().begin();
            Payment copy = stale.find(Payment.class, id);
            assertThat(advance(db.nodes.get(0), id, PaymentStatus.PAID)).isTrue();
            copy.status = PaymentStatus.CANCELLED;
            assertThatThrownBy(() -> stale.getTransaction().commit()).isInstanceOf(OptimisticLockException.class);
        } finally {
            if (stale.getTransaction().isActive()) {
                stale.getTransaction().rollback();
            }
            stale.close();
        }
        assertThat(status(db, id)).isEqualTo(PaymentStatus.PAID);
    }

    /**
     * 8 threads on both nodes advance the same payment NEW -> PAID at one instant, for many payments:
     * exactly one call per payment reports the transition.
     */
    @ParameterizedTest
    @MethodSource("databases")
    void racingTransitionsHaveExactlyOneWinner(Db db) throws Exception {
        int threads = 8;
        int rows = 150;
        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = newPayment(db);
        }
        AtomicIntegerArray wins = new AtomicIntegerArray(rows);
        Races races = new Races(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                EntityManagerFactory node = db.nodes.get(t % 2);
                done.add(pool.submit(() -> {
                    for (int r = 0; r < rows; r++) {
                        long id = ids[r];
                        races.await();
                        if (advance(node, id, PaymentStatus.PAID)) {
                            wins.incrementAndGet(r);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int r = 0; r < rows; r++) {
            assertThat(wins.get(r)).as("transitions of payment %d", r).isEqualTo(1);
        }
    }
}
