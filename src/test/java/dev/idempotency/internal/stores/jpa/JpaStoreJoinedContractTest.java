package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.MutableClock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * The store contract, joined cases included, on the JPA store as a JTA container runs it: joined calls
 * on the caller's transaction ({@link CallerTransactions}), on every database where it can join.
 */
class JpaStoreJoinedContractTest {

    abstract static class OnDatabase extends IdempotencyStoreContract {
        private final MutableClock clock = new MutableClock();
        private final HikariDataSource ds;
        private final TestDatabases.Joined joined;

        OnDatabase(Supplier<HikariDataSource> db) {
            this.ds = db.get();
            this.joined = TestDatabases.joined(ds, clock, Map.of());
        }

        @Override
        protected IdempotencyStore store() {
            return joined.store();
        }

        @Override
        protected CallerTransaction callerTransaction() {
            CallerTransactions tx = joined.tx();
            return new CallerTransaction() {
                @Override
                public void begin() throws Exception {
                    tx.begin();
                }

                @Override
                public void commit() throws Exception {
                    tx.commit();
                }

                @Override
                public void rollback() throws Exception {
                    tx.rollback();
                }
            };
        }

        @Override
        protected void elapse(Duration d) {
            clock.advance(d);
        }

        @Override
        protected int raceThreads() {
            return 16;
        }

        @Override
        protected int raceKeys() {
            return 200;
        }

        @AfterAll
        void stop() {
            joined.store().close();
            ds.close();
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class PostgreSql extends OnDatabase {
        PostgreSql() {
            super(() -> TestDatabases.postgres("joined_contract"));
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class MariaDb extends OnDatabase {
        MariaDb() {
            super(() -> TestDatabases.mariadb("test"));
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class H2 extends OnDatabase {
        H2() {
            super(() -> TestDatabases.h2("joined-contract"));
        }
    }
}
