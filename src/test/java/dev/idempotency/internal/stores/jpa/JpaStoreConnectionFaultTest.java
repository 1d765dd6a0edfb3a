package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.stores.TcpProxy;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JPA store on PostgreSQL through a TCP proxy that cuts the store's connections, with a HikariCP
 * pool as a server would have: a completion that meets the cut lands once the network heals, and the
 * store serves again within seconds of the heal.
 */
@Tag("services")
class JpaStoreConnectionFaultTest {

    private static final String SCHEMA = "idem_jpa_faults";
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final byte[] OUTCOME = {4, 2};

    private TcpProxy proxy;
    private HikariDataSource ds;
    private JpaIdempotencyStore store;

    @BeforeEach
    void start() throws Exception {
        TestDatabases.postgres(SCHEMA).close(); // creates the schema
        proxy = new TcpProxy(5432);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestServices.postgresUrl(SCHEMA).replace(":5432/", ":" + proxy.port() + "/"));
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(1000);
        ds = new HikariDataSource(config);
        store = TestDatabases.store(ds, Clock.systemUTC(), Map.of());
    }

    @AfterEach
    void stop() {
        store.close();
        ds.close();
        proxy.close();
    }

    @Test
    void aCompletionThatMeetsACutLandsWhenTheNetworkHeals() throws Exception {
        String key = key("cut");
        assertThat(store.claim(key, "owner", "fp", LEASE).claimed()).isTrue();

        proxy.cut();
        CompletableFuture<Boolean> completion =
                CompletableFuture.supplyAsync(() -> store.complete(key, "owner", OUTCOME, Duration.ofHours(1)));
        Thread.sleep(3000);
        assertThat(completion).as("the completion waits out the cut").isNotDone();
        proxy.heal();

        assertThat(result(completion, Duration.ofSeconds(30))).isTrue();
        ClaimResult duplicate = store.claim(key, "duplicate", "fp", LEASE);
        assertThat(duplicate.claimed()).isFalse();
        IdempotencyRecord r = duplicate.record();
        assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(r.outcome()).containsExactly(OUTCOME);
    }

    @Test
    void aNewClaimSucceedsWithinSecondsOfAHeal() throws Exception {
        for (int i = 0; i < 4; i++) {
            store.claim(key("warm-" + i), "owner", "fp", LEASE); // connections in the pool to be cut
        }
        proxy.cut();
        Thread.sleep(2000);
        proxy.heal();

        long healed = System.nanoTime();
        String key = key("after-heal");
        RuntimeException last = null;
        while (System.nanoTime() - healed < Duration.ofSeconds(5).toNanos()) {
            try {
                assertThat(store.claim(key, "owner", "fp", LEASE).claimed()).isTrue();
                last = null;
                break;
            } catch (RuntimeException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        assertThat(last).as("the last claim's failure 5 s after the heal").isNull();
        assertThat(proxy.openConnections())
                .as("connections open through the proxy (the pool holds at most 4)")
                .isLessThanOrEqualTo(4);
    }

    /**
     * A pool that does not test what it hands out (Payara's and GlassFish's by default) holds more dead
     * connections after a cut than a claim has attempts: the claim goes on through them (each one it
     * meets is aborted, so the pool drops it) and succeeds on a new connection, in one call.
     */
    @Test
    void aClaimGoesThroughEveryDeadConnectionOfANonValidatingPool() throws Exception {
        org.postgresql.ds.PGSimpleDataSource direct = new org.postgresql.ds.PGSimpleDataSource();
        direct.setUrl(TestServices.postgresUrl(SCHEMA).replace(":5432/", ":" + proxy.port() + "/"));
        direct.setUser("postgres");
        NonValidatingPool pool = new NonValidatingPool(direct);
        JpaIdempotencyStore unvalidated = TestDatabases.store(pool, Clock.systemUTC(), Map.of());
        java.util.List<java.sql.Connection> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                held.add(pool.getConnection());
                held.get(i).isValid(1);
            }
        } finally {
            for (java.sql.Connection c : held) {
                c.close();
            }
        }
        assertThat(pool.idle()).as("idle connections to be cut").isEqualTo(12);
        proxy.cut();
        proxy.heal();

        assertThat(unvalidated.claim(key("through-dead"), "owner", "fp", LEASE).claimed())
                .as("the first claim after the heal")
                .isTrue();
        assertThat(pool.idle())
                .as("the dead connections were dropped; the new one is idle")
                .isEqualTo(1);
    }

    /**
     * The UPDATE of a completion commits, and its answer is lost with the connection: the retry finds
     * the owner's COMPLETED record and reports the completion as done, not as a claim taken over.
     */
    @Test
    void aCompletionWhoseAnswerWasLostIsDone() {
        String key = key("lost-answer");
        AtomicBoolean dropNextAnswer = new AtomicBoolean(true);
        JpaIdempotencyStore lossy = TestDatabases.store(answerLosing(ds, dropNextAnswer), Clock.systemUTC(), Map.of());
        assertThat(lossy.claim(key, "owner", "fp", LEASE).claimed()).isTrue();
        dropNextAnswer.set(true);

        assertThat(lossy.complete(key, "owner", OUTCOME, Duration.ofHours(1))).isTrue();
        assertThat(dropNextAnswer)
                .as("the first completion's answer was dropped")
                .isFalse();
        assertThat(store.read(key))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED));
    }

    /**
     * A pool that, after a cut, refuses connections with a reason that carries no SQLState (GlassFish 7:
     * "This Managed Connection is not valid as the physical connection is not usable", when it hands
     * out a connection its fail-all destroyed): the completion and the release are retried until a
     * connection is had, and land, whatever the reason, since nothing was sent.
     */
    @Test
    void aSettlementRetriesAPoolThatRefusesWithoutASqlState() {
        AtomicInteger refusals = new AtomicInteger();
        StubDataSource refusing = new StubDataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                if (refusals.getAndDecrement() > 0) {
                    throw new SQLException("Failed to obtain/create connection from connection pool [IdempotencyPool]."
                            + " Reason: This Managed Connection is not valid as the physical connection is not"
                            + " usable");
                }
                return ds.getConnection();
            }
        };
        JpaIdempotencyStore refused = TestDatabases.store(refusing, Clock.systemUTC(), Map.of());
        String completed = key("refused-complete");
        String released = key("refused-release");
        assertThat(refused.claim(completed, "owner", "fp", LEASE).claimed()).isTrue();
        assertThat(refused.claim(released, "owner", "fp", LEASE).claimed()).isTrue();

        refusals.set(3);
        assertThat(refused.complete(completed, "owner", OUTCOME, Duration.ofHours(1)))
                .as("the completion after 3 refusals")
                .isTrue();
        assertThat(refusals.get()).as("refusals left").isNegative();
        refusals.set(3);
        assertThat(refused.release(released, "owner"))
                .as("the release after 3 refusals")
                .isTrue();

        assertThat(store.read(completed)).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(r.outcome()).containsExactly(OUTCOME);
        });
        assertThat(store.read(released)).as("the released key").isEmpty();
    }

    /** Connections whose next {@code executeUpdate} of an UPDATE runs, then fails as a lost connection. */
    private static DataSource answerLosing(DataSource target, AtomicBoolean drop) {
        return (DataSource) Proxy.newProxyInstance(
                TcpProxy.class.getClassLoader(), new Class<?>[] {DataSource.class}, (p, m, a) -> {
                    Object result = invoke(target, m, a);
                    if (!(result instanceof Connection c)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(
                            TcpProxy.class.getClassLoader(), new Class<?>[] {Connection.class}, (cp, cm, ca) -> {
                                Object r = invoke(c, cm, ca);
                                if (r instanceof PreparedStatement ps
                                        && ca[0] instanceof String sql
                                        && sql.startsWith("UPDATE")) {
                                    return Proxy.newProxyInstance(
                                            TcpProxy.class.getClassLoader(),
                                            new Class<?>[] {PreparedStatement.class},
                                            (sp, sm, sa) -> {
                                                Object sr = invoke(ps, sm, sa);
                                                if (sm.getName().equals("executeUpdate")
                                                        && drop.compareAndSet(true, false)) {
                                                    throw new SQLException(
                                                            "An I/O error occurred while sending to the backend.",
                                                            "08006");
                                                }
                                                return sr;
                                            });
                                }
                                return r;
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static <T> T result(CompletableFuture<T> f, Duration limit) throws Exception {
        try {
            return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no answer within " + limit.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new AssertionError("the call failed: " + e.getCause(), e.getCause());
        }
    }

    private static String key(String name) {
        return Hashing.sha256Hex(name + "-" + System.nanoTime());
    }
}
