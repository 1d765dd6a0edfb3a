package dev.idempotency.it.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.it.Deployments;
import dev.idempotency.it.jms.app.Ledger;
import dev.idempotency.it.jms.app.RepaymentListener;
import dev.idempotency.it.jms.app.Repayments;
import dev.idempotency.messaging.MessageDeduplicator;
import dev.idempotency.messaging.MessageState;
import dev.idempotency.messaging.MessageStatus;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @IdempotentConsumer} behind a JMS message-driven bean on WildFly's embedded ActiveMQ Artemis
 * broker: real duplicate sends, real redelivery after a rolled-back transaction, and a poison message.
 * Each message's effect is a row in PostgreSQL (no unique constraint), written in the delivery's JTA
 * transaction; the rows are counted there, outside the application.
 *
 * <p>The queue {@code idempotencyIt} redelivers after 100 ms, up to 20 times (src/it/wildfly/setup.cli):
 * a broker must redeliver a message refused because another delivery of it is processing.
 */
@ExtendWith(ArquillianExtension.class)
class JmsConsumerIT {

    private static final Duration LIMIT = Duration.ofSeconds(120);

    @Deployment
    static WebArchive deployment() {
        return Deployments.withPostgres(
                Deployments.war("jms-it.war").addPackage(RepaymentListener.class.getPackage()), Repayments.DATASOURCE);
    }

    @Inject
    JMSContext jms;

    @Resource(lookup = RepaymentListener.QUEUE)
    Queue queue;

    @Resource(lookup = "java:/jms/queue/DLQ")
    Queue deadLetters;

    @Resource(lookup = Repayments.DATASOURCE)
    DataSource ds;

    @Inject
    Ledger ledger;

    @Inject
    MessageDeduplicator messages;

    /** This run's id prefix, so that runs never see each other's rows. */
    private final String run = "r" + Long.toString(System.currentTimeMillis(), 36) + "-";

    @BeforeEach
    void table() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + Repayments.TABLE
                    + " (msg_id TEXT NOT NULL, run INT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())");
        }
    }

    @Test
    void messagesSentTwiceOrThreeTimesTakeEffectOnceEach() throws Exception {
        Map<String, Integer> sends = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
            sends.put(run + "dup-" + i, i % 5 == 0 ? 3 : 2);
        }
        // Copies of one message go out back to back, so that they reach the four sessions together.
        for (Map.Entry<String, Integer> e : sends.entrySet()) {
            for (int k = 0; k < e.getValue(); k++) {
                send(e.getKey(), "ok");
            }
        }
        // Every copy reached the bean (a browser does not see copies the broker already handed to a
        // session), and every message succeeded.
        awaitUntil(
                () -> sends.entrySet().stream()
                                .allMatch(e -> state(e.getKey()) == MessageState.SUCCEEDED
                                        && ledger.deliveries(e.getKey()) >= e.getValue())
                        && pending(queue) == 0,
                () -> "states " + states(sends.keySet()) + ", deliveries " + deliveries(sends.keySet()) + ", pending "
                        + pending(queue));

        Map<String, Integer> rows = rows(run + "dup-%");
        for (String id : sends.keySet()) {
            assertEquals(1, rows.getOrDefault(id, 0), "effect rows of " + id + ": " + rows);
            assertEquals(1, ledger.runs(id), "handler runs of " + id);
        }
        assertEquals(0, pending(deadLetters), "no copy ended in the dead-letter queue");
    }

    @Test
    void aDeliveryThatRollsBackIsRedeliveredAndTakesEffectOnce() throws Exception {
        String id = run + "flaky";
        send(id, "flaky");
        awaitUntil(() -> state(id) == MessageState.SUCCEEDED && pending(queue) == 0, () -> describe(id));

        assertEquals(2, ledger.deliveries(id), "the broker redelivered the rolled-back message once");
        assertEquals(2, ledger.runs(id), "the handler ran twice: the first run failed");
        assertEquals(Map.of(id, 1), rows(id), "the first run's row rolled back with its transaction");
        assertEquals(List.of(2), runsWithRows(id), "the row is the second run's");
        assertEquals(2, messages.status("jms-it.repayments", id).attempts());
    }

    @Test
    void aPoisonMessageEndsFailedAfterMaxAttemptsAndIsAcknowledged() throws Exception {
        String id = run + "poison";
        send(id, "poison");
        int expected = Repayments.MAX_ATTEMPTS + 1;
        awaitUntil(
                () -> state(id) == MessageState.FAILED && ledger.deliveries(id) >= expected && pending(queue) == 0,
                () -> describe(id));

        assertEquals(Repayments.MAX_ATTEMPTS, ledger.runs(id), "the handler ran maxAttempts times");
        assertEquals(
                expected, ledger.deliveries(id), "the delivery after the last attempt was skipped and acknowledged");
        MessageStatus status = messages.status("jms-it.repayments", id);
        assertEquals(Repayments.MAX_ATTEMPTS, status.attempts());
        assertEquals(Map.of(), rows(id), "every failed run rolled back its row");
        assertEquals(0, pending(deadLetters), "the broker did not give up on it: the library did");
    }

    private void send(String id, String mode) {
        jms.createProducer()
                .setProperty(Repayments.ID, id)
                .setProperty(Repayments.MODE, mode)
                .send(queue, "repayment " + id);
    }

    private MessageState state(String id) {
        return messages.status("jms-it.repayments", id).state();
    }

    private Map<String, MessageState> states(Iterable<String> ids) {
        Map<String, MessageState> m = new TreeMap<>();
        for (String id : ids) {
            m.put(id, state(id));
        }
        return m;
    }

    private Map<String, Integer> deliveries(Iterable<String> ids) {
        Map<String, Integer> m = new TreeMap<>();
        for (String id : ids) {
            m.put(id, ledger.deliveries(id));
        }
        return m;
    }

    private String describe(String id) {
        MessageStatus s = messages.status("jms-it.repayments", id);
        return "state " + s.state() + ", attempts " + s.attempts() + ", deliveries " + ledger.deliveries(id) + ", runs "
                + ledger.runs(id) + ", pending " + pending(queue);
    }

    /** Messages of this run still in a queue (not yet acknowledged). */
    private int pending(Queue q) {
        int n = 0;
        Enumeration<?> e;
        try {
            e = jms.createBrowser(q, Repayments.ID + " LIKE '" + run + "%'").getEnumeration();
        } catch (JMSException ex) {
            throw new IllegalStateException("cannot browse " + q, ex);
        }
        while (e.hasMoreElements()) {
            e.nextElement();
            n++;
        }
        return n;
    }

    /** Committed effect rows per message id, for ids LIKE the pattern. */
    private Map<String, Integer> rows(String like) throws SQLException {
        Map<String, Integer> rows = new TreeMap<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT msg_id, count(*) FROM " + Repayments.TABLE + " WHERE msg_id LIKE ? GROUP BY msg_id")) {
            ps.setString(1, like);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return rows;
    }

    private List<Integer> runsWithRows(String id) throws SQLException {
        List<Integer> runs = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT run FROM " + Repayments.TABLE + " WHERE msg_id = ? ORDER BY run")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    runs.add(rs.getInt(1));
                }
            }
        }
        return runs;
    }

    /** Polls until the condition holds, or fails after {@link #LIMIT} with what it last saw. */
    private static void awaitUntil(BooleanSupplier done, Supplier<String> seen) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not done within " + LIMIT + ": " + seen.get());
            }
            Thread.sleep(100);
        }
    }
}
