package dev.idempotency.internal.stores.jpa;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Set;

/**
 * What a failed statement means for the JPA store, by SQLState and vendor error code, across the
 * databases it supports: a lock wait that timed out, a failure a new connection overcomes, or a
 * deadlock that running the statement again resolves.
 */
final class SqlFailures {

    /** SQLStates of lock waits that timed out or were cancelled by the statement timeout. */
    private static final Set<String> TIMEOUT_STATES = Set.of("57014", "55P03", "HYT00", "70100", "40XL1");
    /** SQLStates of deadlocks and serialization failures: the statement can simply run again. */
    private static final Set<String> RETRY_STATES = Set.of("40001", "40P01");
    /** SQLStates, besides class 08, of a server that cannot serve now but will: see {@link #isTransient}. */
    private static final Set<String> TRANSIENT_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    private SqlFailures() {}

    /** Whether a lock wait timed out or the statement timeout cancelled it. */
    static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTimeoutException) {
                return true;
            }
            if (t instanceof SQLException s) {
                if (s.getSQLState() != null && TIMEOUT_STATES.contains(s.getSQLState())) {
                    return true;
                }
                // MariaDB/MySQL: 1205 lock wait timeout, 1969/3024 statement time limit.
                int code = s.getErrorCode();
                if (code == 1205 || code == 1969 || code == 3024) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * Whether a failure is one a retry on a new connection can overcome: a connection that was lost or
     * could not be had (SQLState class 08, a pool timeout, a closed connection), a server that is
     * shutting down, starting or out of connections (PostgreSQL 57P01-57P03, 53300; MariaDB/MySQL
     * 1040, 1053, 2006, 2013).
     */
    static boolean isTransient(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLRecoverableException
                    || t instanceof java.sql.SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException s) {
                String state = s.getSQLState();
                if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
                    return true;
                }
                int code = s.getErrorCode();
                if (code == 1040 || code == 1053 || code == 2006 || code == 2013) {
                    return true;
                }
            }
            if (t instanceof java.io.IOException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** Whether a deadlock or serialization failure ended the statement: it can simply run again. */
    static boolean isRetryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s
                    && ((s.getSQLState() != null && RETRY_STATES.contains(s.getSQLState()))
                            || s.getErrorCode() == 1213)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
