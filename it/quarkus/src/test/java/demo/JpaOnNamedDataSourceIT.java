package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JPA store on a named Quarkus data source ({@code quarkus.datasource.idem.*}, its kind set at build
 * time in the jpa profile) selected by {@code idempotency.jpa.datasource=idem}, beside the default data
 * source: the store's table and records are in the named one's schema, none in the default one's, and a
 * repeat is replayed. A name that no data source has fails the startup naming the key. Runs in the jpa
 * profile only.
 */
class JpaOnNamedDataSourceIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    @Test
    void theStoreRunsOnTheNamedDataSourceAndNotOnTheDefaultOne() throws Exception {
        assumeJpa();
        String named = "quarkus_it_named_" + Long.toString(System.currentTimeMillis(), 36);
        sql("CREATE SCHEMA " + named);
        try (PackagedApp app = PackagedApp.start(
                PackagedApp.jar(),
                PackagedApp.log("named.log"),
                PackagedApp.port(80),
                "executions/orders/probe",
                List.of(
                        "-Didempotency.jpa.datasource=idem",
                        "-Dquarkus.datasource.idem.jdbc.url=jdbc:postgresql://127.0.0.1:5432/test?currentSchema="
                                + named,
                        "-Dquarkus.datasource.idem.username=postgres"))) {
            assertThat(app.started())
                    .as("the app started (output in %s)", app.log())
                    .isTrue();
            assertThat(app.output())
                    .as("the app's output (%s)", app.log())
                    .contains("JPA idempotency store on idem (postgresql)");
            HttpClient client = PackagedApp.client();
            String body = "{\"ref\":\"named-ds\",\"cents\":1250,\"holdMillis\":0}";
            HttpResponse<String> first =
                    client.send(app.post("orders", body, "key-named-ds", CALL), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> repeat =
                    client.send(app.post("orders", body, "key-named-ds", CALL), HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode())
                    .as("first POST answered %s", first.body())
                    .isEqualTo(201);
            assertThat(repeat.headers().firstValue("Idempotent-Replayed"))
                    .as("the repeat (%s %s) was replayed", repeat.statusCode(), repeat.body())
                    .hasValue("true");
            assertThat(app.executions(client, "orders", "named-ds", CALL)).isEqualTo(1);
            assertThat(count("SELECT count(*) FROM " + named + ".idempotency_record"))
                    .as("records in the named data source's schema %s", named)
                    .isEqualTo(1);
            String defaultSchema = app.schema();
            assertThat(count("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" + defaultSchema
                            + "' AND table_name = 'idempotency_record'"))
                    .as("idempotency tables in the default data source's schema %s", defaultSchema)
                    .isZero();
        } finally {
            sql("DROP SCHEMA " + named + " CASCADE");
        }
    }

    @Test
    void aNameNoDataSourceHasFailsTheStartupNamingTheKey() throws Exception {
        assumeJpa();
        try (PackagedApp app = PackagedApp.start(
                PackagedApp.jar(),
                PackagedApp.log("named-missing.log"),
                PackagedApp.port(80),
                "executions/orders/probe",
                List.of("-Didempotency.jpa.datasource=ledger"))) {
            assertThat(app.started())
                    .as("the app started with idempotency.jpa.datasource=ledger (output in %s)", app.log())
                    .isFalse();
            assertThat(app.exitCode()).isNotZero();
            assertThat(app.output())
                    .contains("cannot find the data source 'ledger'")
                    .contains("idempotency.jpa.datasource")
                    .contains("quarkus.datasource.<name>");
        }
    }

    private static void assumeJpa() {
        PackagedApp.assumeStore("jpa", "the app has no data source (the jpa profile adds Agroal and the JPA store)");
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(System.getProperty("app.database"));
                Statement s = c.createStatement()) {
            s.setQueryTimeout(30);
            s.execute(statement);
        }
    }

    private static long count(String query) throws Exception {
        try (Connection c = DriverManager.getConnection(System.getProperty("app.database"));
                Statement s = c.createStatement()) {
            s.setQueryTimeout(30);
            try (ResultSet r = s.executeQuery(query)) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
