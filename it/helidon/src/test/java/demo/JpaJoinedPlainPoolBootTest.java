package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.inject.se.SeContainer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The joined mode on Helidon's plain HikariCP pool ({@code @Named("orders")}), whose connections join no
 * JTA transaction even with Narayana present: the record cannot roll back with the caller's work. The
 * library must refuse the boot naming the data source key, or else really roll the claim back with a
 * failed call; it must never claim outside the transaction it says it joins.
 */
@ExtendWith(Db.class)
class JpaJoinedPlainPoolBootTest {

    @Test
    void aJoinedOperationOnAPoolThatJoinsNoTransaction() throws Exception {
        Object outcome = Boot.start(Map.of(
                "idempotency.store", "jpa",
                "idempotency.jpa.datasource", "orders",
                "javax.sql.DataSource.orders.dataSourceClassName", "org.postgresql.ds.PGSimpleDataSource",
                "javax.sql.DataSource.orders.dataSource.url",
                        "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=helidon_it",
                "javax.sql.DataSource.orders.dataSource.user", "postgres"));
        if (outcome instanceof Throwable failure) {
            String messages = Boot.messages(failure);
            assertTrue(
                    messages.contains("idempotency.jpa.datasource"),
                    () -> "the refusal does not name idempotency.jpa.datasource:\n" + messages);
            return;
        }
        try (SeContainer app = (SeContainer) outcome) {
            URI base = Boot.base(app);
            String key = GuardChecks.key();
            String ref = GuardChecks.ref();
            app.select(FailSwitch.class).get().failNext(1);
            HttpResponse<String> failed = Http.post(base, "joined-orders", key, GuardChecks.order(ref, 100, 0));
            assertTrue(failed.statusCode() >= 500, () -> "the failing joined call: " + Http.describe(failed));
            assertEquals(0, Db.effects("joined", ref), "effect rows after the rollback");
            assertEquals(
                    0,
                    Db.records(),
                    "records after the rollback: the claim was written outside the joined transaction");
            // started, so it must really join: the retry runs, once
            HttpResponse<String> retry = Http.post(base, "joined-orders", key, GuardChecks.order(ref, 100, 0));
            assertEquals(
                    201,
                    retry.statusCode(),
                    () -> "the app started with a joined operation on a pool that joins no transaction, and"
                            + " the retry of a rolled-back call got " + Http.describe(retry)
                            + "; refuse the boot naming idempotency.jpa.datasource instead");
            assertEquals(1, Db.effects("joined", ref), "effect rows after the retry");
        }
    }
}
