package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On the JPA store with Quarkus's transaction manager (Narayana, -Pjpa): a guarded CDI method called inside
 * a {@code @Transactional} resource method settles with that transaction. In the separate mode its outcome
 * is stored when the transaction commits, and a call whose transaction rolled back runs again on a repeat;
 * in the joined mode its record is written in the transaction and goes with a rollback. Runs are counted
 * by the app itself ({@link Executions}).
 */
class JtaOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        PackagedApp.assumeStore(
                "jpa", "the app has no transaction manager (the jpa profile adds Narayana and the JPA store)");
        app = PackagedApp.startFor("jta.log", 60);
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aSeparateCallWhoseTransactionRolledBackRunsAgain() throws Exception {
        List<Integer> answers = twice("transfers/separate/separate-rollback?rollback=true");
        assertThat(executions("transfers-separate", "separate-rollback"))
                .as("runs of Transfers.separate after two calls whose transactions rolled back (answered %s)", answers)
                .isEqualTo(2);
    }

    @Test
    void aSeparateCallWhoseTransactionCommittedRunsOnce() throws Exception {
        List<Integer> answers = twice("transfers/separate/separate-commit");
        assertThat(executions("transfers-separate", "separate-commit"))
                .as("runs of Transfers.separate after two calls whose transactions committed (answered %s)", answers)
                .isEqualTo(1);
    }

    @Test
    void aJoinedCallWhoseTransactionRolledBackRunsAgain() throws Exception {
        List<Integer> answers = twice("transfers/joined/joined-rollback?rollback=true");
        assertThat(executions("transfers-joined", "joined-rollback"))
                .as("runs of Transfers.joined after two calls whose transactions rolled back (answered %s)", answers)
                .isEqualTo(2);
    }

    @Test
    void aJoinedCallWhoseTransactionCommittedRunsOnce() throws Exception {
        List<Integer> answers = twice("transfers/joined/joined-commit");
        assertThat(executions("transfers-joined", "joined-commit"))
                .as("runs of Transfers.joined after two calls whose transactions committed (answered %s)", answers)
                .isEqualTo(1);
    }

    /** Calls {@code path} twice, one after the other; each call must answer 200. */
    private static List<Integer> twice(String path) throws Exception {
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = client.send(app.post(path, "", null, CALL), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode())
                    .as("call %s of POST /%s answered %s", i + 1, path, r.body())
                    .isEqualTo(200);
            answers.add(r.statusCode());
        }
        return answers;
    }

    private static int executions(String kind, String ref) throws Exception {
        return app.executions(client, kind, ref, CALL);
    }
}
