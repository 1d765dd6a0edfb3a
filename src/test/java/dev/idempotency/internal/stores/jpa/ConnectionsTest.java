package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which failures abort a pooled connection (so that the pool drops it) and which leave it. */
class ConnectionsTest {

    /** A connection that records the calls it gets and says whether it is closed. */
    private static Connection connection(List<String> calls, boolean closed) {
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "isClosed" -> closed;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> null;
                    };
                });
    }

    @ParameterizedTest(name = "SQLState {0}, error code {1}, connection closed {2}: aborted {3}")
    @CsvSource({
        "08006, 0, false, true", // PostgreSQL: connection failure (a reset)
        "08003, 0, false, true", // PostgreSQL: connection does not exist
        "08S01, 0, false, true", // MariaDB: communication link failure
        "HY000, 2013, false, true", // MariaDB: lost connection during query
        "HY000, 2006, false, true", // MariaDB: server has gone away
        "23505, 0, false, false", // a unique violation: the connection is fine
        "40001, 0, false, false", // a serialization failure: retried on the same pool, connection fine
        "55P03, 0, false, false", // a lock timeout
        "57014, 0, true, true", // whatever the state, a connection the driver closed is gone
    })
    void aBrokenConnectionIsAbortedAndAHealthyOneIsNot(String state, int code, boolean closed, boolean aborted) {
        List<String> calls = new ArrayList<>();
        SQLException failure = new SQLException("failure", state, code);
        assertThatThrownBy(() -> Connections.evictingBroken(connection(calls, closed), c -> {
                    throw failure;
                }))
                .isSameAs(failure);
        assertThat(calls.contains("abort")).as("abort called, calls: %s", calls).isEqualTo(aborted);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "java.sql.SQLTransientConnectionException",
        "java.sql.SQLNonTransientConnectionException",
        "java.sql.SQLRecoverableException"
    })
    void theConnectionExceptionTypesAreConnectionLoss(String type) throws Exception {
        SQLException e =
                (SQLException) Class.forName(type).getConstructor(String.class).newInstance("x");
        assertThat(Connections.isConnectionLoss(e)).isTrue();
        assertThat(Connections.isConnectionLoss(new SQLException("wrapped", "XX000", new java.io.IOException("reset"))))
                .isTrue();
        assertThat(Connections.isConnectionLoss(new SQLException("plain", "22001")))
                .isFalse();
        assertThat(Connections.isConnectionLoss(new SQLTransientConnectionException("pool")))
                .isTrue();
    }
}
