package dev.idempotency.internal.stores.jpa;

import static dev.idempotency.spi.StoreSupport.keyHash;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import dev.idempotency.spi.RecordStatus;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The JPA store: one row per key in the table {@value #TABLE} of the application's database, written
 * with plain JDBC on the application's (JTA) data source; no JPA provider takes part. Each primitive
 * is one atomic statement applying {@link RecordLifecycle}'s rules, compare-and-set style: claim is an
 * INSERT of the IN_PROGRESS row ({@link Dialect#claim()}), or one UPDATE conditional on the old row's
 * expiry; complete (UPDATE) and release (DELETE) are fenced by key, owner token and IN_PROGRESS; purge
 * spares IN_PROGRESS rows within {@code claim-grace} of their lease. A live record is read without a
 * lock. In the {@code separate} mode each statement autocommits on a connection of its own; in {@code
 * joined} it runs in the caller's transaction (on PostgreSQL the claim under a savepoint, sent as one
 * statement). Lock waits are bounded ({@link StatementWatchdog}), transient faults of complete and
 * release retried up to {@code settle-patience}, other failures are {@link
 * IdempotencyStoreUnavailableException}. On PostgreSQL with {@code idempotency.jpa.notify-settlements},
 * complete and release, once committed, hand the key to a sender thread ({@link SettlementNotifier})
 * that sends it on {@value #CHANNEL}, and waiting duplicates on every node hear it ({@link
 * #notifySettlements}). The design, per dialect:
 * docs/jpa-store.md.
 */
public final class JpaIdempotencyStore implements IdempotencyStore {

    /** The table name. */
    public static final String TABLE = "idempotency_record";

    /**
     * The PostgreSQL channel on which complete and release send the key they settled: the table's name
     * and {@code _settled}.
     */
    public static final String CHANNEL = TABLE + "_settled";

    private static final System.Logger LOG = System.getLogger(JpaIdempotencyStore.class.getName());
    private static final int ATTEMPTS = 5;
    /** How long a claim or a read tries other connections after a lost one; a database that is down fails fast. */
    private static final long CONNECTION_RETRY_WINDOW_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
    /** The pause between attempts on lost connections after the first {@link #ATTEMPTS}. */
    private static final long CONNECTION_RETRY_PAUSE_MILLIS = 50;

    private static final int DELETE_CHUNK = 500;
    private static final String SAVEPOINT = "idempotency_claim";

    private final Connections connections;
    private final Dialect dialect;
    private final JpaStoreSettings settings;
    private final Clock clock;
    private final int timeoutSeconds;
    /** Bounds lock waits where {@link Dialect#boundsByCancelling}; {@code null} elsewhere. */
    private final StatementWatchdog watchdog;

    private final String claimSql;
    /** PostgreSQL's joined claim: the claim between SAVEPOINT and RELEASE SAVEPOINT, one round trip. */
    private final String savepointedClaimSql;

    private final String readSql;
    private final String joinedReadSql;
    private final String takeoverSql;
    private final String completeSql;
    private final String deleteSql;

    private final String renewSql;
    private final String purgeSelectSql;
    /** The sending side of the notices; {@code null} where complete and release send none. Shared by the views. */
    private final SettlementNotifier notifier;
    /** The listening side of the notices; {@code null} where this node cannot listen. Shared by the views. */
    private final SettlementNotices notices;

    JpaIdempotencyStore(
            Connections connections,
            Dialect dialect,
            JpaStoreSettings settings,
            Clock clock,
            SettlementNotifier notifier,
            SettlementNotices notices) {
        this.watchdog = dialect.boundsByCancelling() ? new StatementWatchdog(settings.lockTimeout()) : null;
        this.notifier = notifier;
        this.notices = notices;
        this.connections = connections;
        this.dialect = dialect;
        this.settings = settings;
        this.clock = clock;
        this.timeoutSeconds = (int)
                Math.min(Integer.MAX_VALUE, Math.max(1, settings.lockTimeout().toSeconds()));
        String fence = "idem_key = ? AND " + dialect.exactOwner() + " = ? AND status = ?";
        this.claimSql = dialect.claim();
        this.savepointedClaimSql = "SAVEPOINT " + SAVEPOINT + "; " + claimSql + "; RELEASE SAVEPOINT " + SAVEPOINT;
        this.readSql = dialect.read(false);
        this.joinedReadSql = dialect.read(true);
        this.takeoverSql = "UPDATE " + TABLE + " SET status = ?, owner_token = ?, fingerprint = ?, expires_at = ?,"
                + " outcome = NULL, created_at = ?, updated_at = ? WHERE idem_key = ? AND expires_at <= ?"
                + databaseNowBound(dialect);
        this.completeSql =
                "UPDATE " + TABLE + " SET status = ?, expires_at = ?, outcome = ?, updated_at = ? WHERE " + fence;
        this.deleteSql = "DELETE FROM " + TABLE + " WHERE " + fence;
        this.renewSql = "UPDATE " + TABLE + " SET expires_at = CASE WHEN expires_at < ? THEN ? ELSE expires_at END,"
                + " updated_at = ? WHERE " + fence;
        this.purgeSelectSql =
                "SELECT idem_key FROM " + TABLE + " WHERE " + purgeCondition(dialect) + " ORDER BY expires_at";
    }

    /**
     * Stops sending and listening for settlement notices, where this store does, and closes the
     * connections it kept for them. The data source belongs to its owner.
     */
    public void close() {
        if (notifier != null) {
            notifier.close();
        }
        if (notices != null) {
            notices.close();
        }
    }

    /** Where this store sends settlement notices; {@code null} where it sends none. */
    SettlementNotifier notifier() {
        return notifier;
    }

    /** Where this store hears settlement notices ({@link #notifySettlements}); {@code null} where it does not. */
    SettlementNotices notices() {
        return notices;
    }

    /** The database dialect in use. */
    String dialectName() {
        return dialect.configName();
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return claim(GuardedOperation.NONE, key, owner, fingerprint, lease);
    }

    /** Claims in the operation's transaction mode: in the joined mode, on the caller's transaction. */
    @Override
    public ClaimResult claim(GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        Instant now = now();
        IdempotencyRecord claim = normalized(RecordLifecycle.newClaim(key, owner, fingerprint, now, lease));
        try {
            if (operation.joined()) {
                return connections.joined(c -> claimJoined(c, claim, now), operation.name());
            }
            return retrying(() -> connections.separate(c -> claimOn(c, claim, now, false)));
        } catch (SQLException e) {
            if (SqlFailures.isTimeout(e)) {
                LOG.log(Level.DEBUG, "key #{0}: lock wait timed out; reporting it in progress", keyHash(key));
                // The holder's record is unknown: report one that is IN_PROGRESS for the lock timeout,
                // with the caller's own fingerprint so that it is not mistaken for a mismatch (422).
                return ClaimResult.existing(new IdempotencyRecord(
                        key,
                        RecordStatus.IN_PROGRESS,
                        "(lock wait timed out)",
                        fingerprint,
                        now.plus(settings.lockTimeout()),
                        null));
            }
            throw unavailable("claim", operation.name(), key, e);
        }
    }

    /**
     * The joined claim. On PostgreSQL under a savepoint: there a statement that fails (a lock wait that
     * timed out) aborts the whole transaction, and the caller's transaction must go on (to poll again,
     * or to answer 409 and roll back by its own decision).
     */
    private ClaimResult claimJoined(Connection c, IdempotencyRecord claim, Instant now) throws SQLException {
        if (!dialect.joinable()) {
            throw new IdempotencyConfigurationException("The joined transaction mode of the JPA idempotency store"
                    + " is not supported on this database (" + dialect.configName() + "): "
                    + notJoinableReason(dialect) + " Set the operation's transaction to separate.");
        }
        if (dialect != Dialect.POSTGRESQL) {
            return claimOn(c, claim, now, true);
        }
        // One round trip: SAVEPOINT, the claim and RELEASE SAVEPOINT in one statement.
        Found found = undoneOnFailure(c, () -> insertOrFind(c, savepointedClaimSql, claim, now));
        if (found.inserted()) {
            return ClaimResult.claimed(claim);
        }
        if (found.existing() != null && RecordLifecycle.isLive(found.existing(), now)) {
            return ClaimResult.existing(found.existing());
        }
        // Rare: the record is not live (a takeover), or it committed after the statement's snapshot.
        execute(c, "SAVEPOINT " + SAVEPOINT);
        ClaimResult result = undoneOnFailure(c, () -> claimOn(c, claim, now, true));
        execute(c, "RELEASE SAVEPOINT " + SAVEPOINT);
        return result;
    }

    /** Runs statements under the claim's savepoint; if they fail, rolls back to it and rethrows. */
    private static <T> T undoneOnFailure(Connection c, SqlCall<T> statements) throws SQLException {
        try {
            return statements.call();
        } catch (SQLException | RuntimeException e) {
            rollBackToSavepoint(c, e);
            throw e;
        }
    }

    /** After a failed statement under the claim's savepoint: undoes it, so the transaction can go on. */
    private static void rollBackToSavepoint(Connection c, Exception failure) {
        try {
            execute(c, "ROLLBACK TO SAVEPOINT " + SAVEPOINT);
            execute(c, "RELEASE SAVEPOINT " + SAVEPOINT);
        } catch (SQLException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    /** The claim on one connection: insert, else read and decide, else take over; see the class description. */
    private ClaimResult claimOn(Connection c, IdempotencyRecord claim, Instant now, boolean joined)
            throws SQLException {
        IdempotencyRecord refused = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Found found = insertOrFind(c, claimSql, claim, now);
            if (found.inserted()) {
                return ClaimResult.claimed(claim);
            }
            IdempotencyRecord existing = found.existing() != null ? found.existing() : read(c, claim.key(), joined);
            if (existing == null) {
                continue; // released or purged since the INSERT: insert again
            }
            if (RecordLifecycle.isOwnedBy(existing, claim.owner())) {
                // This call's own INSERT, from an attempt whose answer a lost connection swallowed.
                return ClaimResult.claimed(existing);
            }
            if (RecordLifecycle.isLive(existing, now) || sameRecord(existing, refused)) {
                // Live on this node's clock, or (unchanged since the takeover that the database
                // refused) live on the database's: this node's clock runs ahead.
                return ClaimResult.existing(existing);
            }
            if (takeOver(c, claim, now)) {
                return ClaimResult.claimed(claim, existing);
            }
            // Another caller took it over, or it was deleted, since the read, or the database's clock
            // sees it live: decide again.
            refused = existing;
        }
        throw new SQLException("key #" + keyHash(claim.key()) + " changed " + ATTEMPTS
                + " times between a claim's statements; the table is under unusual churn");
    }

    private static boolean sameRecord(IdempotencyRecord a, IdempotencyRecord b) {
        return b != null
                && a.status() == b.status()
                && a.owner().equals(b.owner())
                && a.expiresAt().equals(b.expiresAt());
    }

    /** What the claim statement found. */
    private record Found(boolean inserted, IdempotencyRecord existing) {
        static final Found INSERTED = new Found(true, null);
        static final Found UNSEEN = new Found(false, null);
    }

    /**
     * Runs a claim statement: {@link #claimSql}, or on PostgreSQL {@link #savepointedClaimSql}, whose
     * one result set is that of the claim between the savepoint's two update counts.
     */
    private Found insertOrFind(Connection c, String sql, IdempotencyRecord claim, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            long at = now.toEpochMilli();
            ps.setString(1, claim.key());
            ps.setString(2, claim.status().name());
            ps.setString(3, claim.owner());
            ps.setString(4, claim.fingerprint());
            ps.setLong(5, claim.expiresAt().toEpochMilli());
            ps.setLong(6, at);
            ps.setLong(7, at);
            if (dialect.returnsExisting()) {
                ps.setString(8, claim.key());
                boolean isResultSet = bounded(ps, ps::execute);
                for (int skipped = 0; !isResultSet && skipped < 2; skipped++) {
                    isResultSet = ps.getMoreResults();
                }
                if (!isResultSet) {
                    throw new SQLException("The claim statement returned no result set: " + sql);
                }
                try (ResultSet rs = ps.getResultSet()) {
                    if (!rs.next()) {
                        // The conflicting row committed while the statement waited for it, after the
                        // statement's snapshot: a new statement will see it.
                        return Found.UNSEEN;
                    }
                    return rs.getBoolean(1) ? Found.INSERTED : new Found(false, record(rs, 2, claim.key()));
                }
            }
            if (bounded(ps, ps::executeUpdate) == 1) {
                return Found.INSERTED;
            }
        } catch (SQLException e) {
            if (!dialect.isDuplicateKey(e)) {
                throw e;
            }
        }
        return Found.UNSEEN;
    }

    /** The row of a key, or null; see {@link Dialect#read} for the joined read on MariaDB/MySQL. */
    private IdempotencyRecord read(Connection c, String key, boolean joined) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(joined ? joinedReadSql : readSql)) {
            ps.setString(1, key);
            try (ResultSet rs = bounded(ps, ps::executeQuery)) {
                return rs.next() ? record(rs, 1, key) : null;
            }
        }
    }

    /**
     * Takes over a row that is not live: the values of {@code claim}, with {@code created_at} restarted,
     * if the row's expiry is still at or before now.
     *
     * @return whether this call changed the row (false: another caller took it over or it is gone)
     */
    private boolean takeOver(Connection c, IdempotencyRecord claim, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(takeoverSql)) {
            long at = now.toEpochMilli();
            ps.setString(1, claim.status().name());
            ps.setString(2, claim.owner());
            ps.setString(3, claim.fingerprint());
            ps.setLong(4, claim.expiresAt().toEpochMilli());
            ps.setLong(5, at);
            ps.setLong(6, at);
            ps.setString(7, claim.key());
            ps.setLong(8, at);
            return bounded(ps, ps::executeUpdate) == 1;
        }
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        Instant now = now();
        IdempotencyRecord r;
        try {
            r = retrying(() -> connections.separate(c -> read(c, key, false)));
        } catch (SQLException e) {
            throw unavailable("read", null, key, e);
        }
        return r != null && RecordLifecycle.isLive(r, now) ? Optional.of(r) : Optional.empty();
    }

    /**
     * Completes the owner's claim with one fenced UPDATE. The WHERE clause is exactly {@link
     * RecordLifecycle#isOwnedBy} in SQL (an IN_PROGRESS claim made by that owner, no time bound) and
     * the values written are those of {@link RecordLifecycle#complete} applied to that expected claim
     * (status, expiry and outcome; the owner and the fingerprint it keeps are already in the row).
     */
    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return complete(GuardedOperation.NONE, key, owner, outcome, ttl);
    }

    @Override
    public boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
        Instant now = now();
        IdempotencyRecord expected = expectedClaim(key, owner);
        IdempotencyRecord done = RecordLifecycle.complete(expected, outcome, now, ttl);
        if (!done.owner().equals(expected.owner()) || !done.fingerprint().equals(expected.fingerprint())) {
            // The UPDATE writes only status, expiry and outcome; a lifecycle that changed more would
            // need this store to write it too.
            throw new IllegalStateException("RecordLifecycle.complete changed the owner or the fingerprint of a"
                    + " claim; the JPA store's fenced UPDATE must be extended to write them");
        }
        return settle(
                operation,
                "complete",
                key,
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(completeSql)) {
                        ps.setString(1, done.status().name());
                        ps.setLong(2, done.expiresAt().toEpochMilli());
                        ps.setBytes(3, done.outcome());
                        ps.setLong(4, now.toEpochMilli());
                        bindFence(ps, 5, expected);
                        return settled(ps);
                    }
                },
                c -> {
                    // An earlier attempt's UPDATE committed but its answer was lost: the row is this owner's
                    // COMPLETED record.
                    IdempotencyRecord r = read(c, key, false);
                    return r != null && RecordLifecycle.isCompletedBy(r, owner);
                });
    }

    /** Releases the owner's claim with one fenced DELETE ({@link RecordLifecycle#isOwnedBy} in SQL). */
    @Override
    public boolean release(String key, String owner) {
        return release(GuardedOperation.NONE, key, owner);
    }

    @Override
    public boolean release(GuardedOperation operation, String key, String owner) {
        IdempotencyRecord expected = expectedClaim(key, owner);
        return settle(
                operation,
                "release",
                key,
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(deleteSql)) {
                        bindFence(ps, 1, expected);
                        return settled(ps);
                    }
                },
                null);
    }

    /**
     * Extends the owner's claim with one fenced UPDATE ({@link RecordLifecycle#isOwnedBy} in SQL, the
     * values of {@link RecordLifecycle#renew}: never earlier than the row's expiry). Always in a
     * transaction of its own, and not retried: the engine renews again a third of a lease later.
     */
    @Override
    public boolean renew(String key, String owner, Duration lease) {
        Instant now = now();
        IdempotencyRecord expected = expectedClaim(key, owner);
        long until = RecordLifecycle.renew(expected, now, lease).expiresAt().toEpochMilli();
        try {
            return connections.separate(c -> {
                try (PreparedStatement ps = c.prepareStatement(renewSql)) {
                    ps.setLong(1, until);
                    ps.setLong(2, until);
                    ps.setLong(3, now.toEpochMilli());
                    bindFence(ps, 4, expected);
                    return bounded(ps, ps::executeUpdate) == 1;
                }
            });
        } catch (SQLException e) {
            throw unavailable("renew", null, key, e);
        }
    }

    /**
     * Runs a fenced complete or release in the operation's mode. In the separate mode a transient
     * failure ({@link #isTransient}: a lost connection, a failover, a pool timeout, a lock timeout, a
     * deadlock) and any failure to get a connection ({@link Connections.Unobtainable}) are retried until {@link JpaStoreSettings#settlePatience} has passed: the operation
     * already ran, and an outcome that is not stored lets a retry run it again once the lease ends.
     * The fence makes a retry safe: it changes the row only while it is still this owner's claim.
     *
     * @param landed after an attempt whose connection failed, the statement may have committed: when a
     *     retry's fence finds nothing, this decides on a fresh connection whether the earlier attempt
     *     did the work (null: take the retry's answer)
     */
    private boolean settle(
            GuardedOperation operation,
            String action,
            String key,
            Connections.Work<Boolean> statement,
            Connections.Work<Boolean> landed) {
        try {
            if (operation.joined()) {
                return connections.settleJoined(
                        c -> {
                            boolean done = statement.run(c);
                            if (done && notifier != null) {
                                connections.afterCommit(() -> notifier.send(key));
                            }
                            return done;
                        },
                        operation.name());
            }
            long deadline = System.nanoTime() + settings.settlePatience().toNanos();
            long pauseMillis = 50;
            boolean mayHaveLanded = false;
            for (int attempt = 1; ; attempt++) {
                try {
                    boolean done = connections.separate(statement);
                    if (!done && mayHaveLanded && landed != null) {
                        done = connections.separate(landed);
                    }
                    if (done && notifier != null) {
                        notifier.send(key); // committed: the statement autocommitted
                    }
                    return done;
                } catch (SQLException e) {
                    boolean lock = SqlFailures.isTimeout(e) || SqlFailures.isRetryable(e);
                    // No connection could be had, so nothing was sent. The pool's reason may carry no
                    // SQLState at all (GlassFish's "This Managed Connection is not valid" after a cut),
                    // and the next attempt may get a connection: retried whatever the reason.
                    boolean unsent = e instanceof Connections.Unobtainable;
                    if (!(lock || unsent || SqlFailures.isTransient(e)) || System.nanoTime() - deadline >= 0) {
                        throw e;
                    }
                    LOG.log(
                            Level.DEBUG,
                            "key #{0}: {1} attempt {2} failed ({3}); retrying",
                            keyHash(key),
                            action,
                            attempt,
                            e.toString());
                    if (!lock) {
                        // A lock wait has already waited; a lost connection is retried after a pause
                        // that grows, so that a failover is not met by a storm of reconnects.
                        mayHaveLanded |= !unsent;
                        pause(Math.min(pauseMillis, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)), e);
                        pauseMillis = Math.min(1000, pauseMillis * 2);
                    }
                }
            }
        } catch (SQLException e) {
            throw unavailable(action, operation.name(), key, e);
        }
    }

    private static void pause(long millis, SQLException failure) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure;
        }
    }

    /**
     * The claim that {@code owner} must hold for complete and release to act. Only its key, owner and
     * status take part in the fence (they are what {@link RecordLifecycle#isOwnedBy} checks).
     */
    private static IdempotencyRecord expectedClaim(String key, String owner) {
        IdempotencyRecord expected =
                new IdempotencyRecord(key, RecordStatus.IN_PROGRESS, owner, "(not read)", Instant.EPOCH, null);
        if (!RecordLifecycle.isOwnedBy(expected, owner)) {
            throw new IllegalStateException("RecordLifecycle.isOwnedBy no longer accepts an IN_PROGRESS claim by"
                    + " its own owner; the JPA store's fenced statements must follow its new rule");
        }
        return expected;
    }

    private void bindFence(PreparedStatement ps, int first, IdempotencyRecord expected) throws SQLException {
        ps.setString(first, expected.key());
        ps.setString(first + 1, dialect.ownerParameter(expected.owner()));
        ps.setString(first + 2, expected.status().name());
    }

    /** Runs a fenced complete or release: whether it changed the row. */
    private boolean settled(PreparedStatement ps) throws SQLException {
        return bounded(ps, ps::executeUpdate) == 1;
    }

    /**
     * Tells {@code listener} the keys that complete and release settle on any node, from PostgreSQL's
     * notices on {@value #CHANNEL} ({@link SettlementNotices}, sent by {@link SettlementNotifier}): the
     * first call starts listening, on one
     * connection of the data source kept for it and a daemon thread. False (waiters poll) on other
     * databases, where {@code idempotency.jpa.notify-settlements} is false, and where the data source's
     * connections do not unwrap to the PostgreSQL driver's.
     */
    @Override
    public boolean notifySettlements(java.util.function.Consumer<String> listener) {
        if (notices == null) {
            return false;
        }
        notices.subscribe(listener);
        return true;
    }

    /**
     * Deletes the COMPLETED row made by {@code owner}'s claim with one fenced DELETE ({@code WHERE
     * idem_key = ? AND owner = ? AND status = 'COMPLETED'}, the SQL form of {@link
     * RecordLifecycle#isCompletedBy}). Always in a transaction of its own: it is an operator's repair,
     * never part of a business transaction.
     */
    @Override
    public boolean deleteCompleted(String key, String owner) {
        IdempotencyRecord expected =
                new IdempotencyRecord(key, RecordStatus.COMPLETED, owner, "(not read)", Instant.EPOCH, new byte[0]);
        if (!RecordLifecycle.isCompletedBy(expected, owner)) {
            throw new IllegalStateException("RecordLifecycle.isCompletedBy no longer accepts a COMPLETED record by"
                    + " its own owner; the JPA store's fenced DELETE must follow its new rule");
        }
        try {
            return connections.separate(c -> {
                try (PreparedStatement ps = c.prepareStatement(deleteSql)) {
                    bindFence(ps, 1, expected);
                    return bounded(ps, ps::executeUpdate) == 1;
                }
            });
        } catch (SQLException e) {
            throw unavailable("delete", null, key, e);
        }
    }

    /**
     * Deletes up to {@code max} rows that are not live, oldest expiry first: COMPLETED rows whose
     * retention ended, and IN_PROGRESS rows whose lease ended more than {@code
     * idempotency.jpa.claim-grace} ago. A SELECT of the keys (served by the index on {@code
     * expires_at}), then DELETEs of those keys that repeat the condition, so a row taken over in
     * between is live again and stays.
     */
    @Override
    public int purgeExpired(int max) {
        long now = now().toEpochMilli();
        long graceEnd = now - settings.claimGrace().toMillis();
        try {
            return connections.separate(c -> {
                List<String> keys = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(purgeSelectSql)) {
                    bindPurge(ps, 1, now, graceEnd);
                    ps.setMaxRows(max);
                    try (ResultSet rs = bounded(ps, ps::executeQuery)) {
                        while (rs.next() && keys.size() < max) {
                            keys.add(rs.getString(1));
                        }
                    }
                }
                int deleted = 0;
                for (int from = 0; from < keys.size(); from += DELETE_CHUNK) {
                    List<String> chunk = keys.subList(from, Math.min(keys.size(), from + DELETE_CHUNK));
                    String sql = "DELETE FROM " + TABLE + " WHERE idem_key IN ("
                            + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ") AND "
                            + purgeCondition(dialect);
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        int i = 1;
                        for (String k : chunk) {
                            ps.setString(i++, k);
                        }
                        bindPurge(ps, i, now, graceEnd);
                        deleted += bounded(ps, ps::executeUpdate);
                    }
                }
                return deleted;
            });
        } catch (SQLException e) {
            throw unavailable("purge expired records", null, null, e);
        }
    }

    /**
     * Not live, and not an IN_PROGRESS claim within its grace, on the node's clock and on the
     * database's ({@link #databaseNowBound}): parameters now, IN_PROGRESS, grace end, and where the
     * database has a clock, the grace in milliseconds.
     */
    private static String purgeCondition(Dialect dialect) {
        String graceEnd = dialect.nowMillis() == null ? "" : " AND expires_at <= " + dialect.nowMillis() + " - ?";
        return "expires_at <= ?" + databaseNowBound(dialect) + " AND (status <> ? OR (expires_at <= ?" + graceEnd
                + "))";
    }

    /**
     * The database clock's half of an expiry decision: a record is purged or taken over only once its
     * expiry has passed on the node's clock (the parameter beside this condition) <b>and</b> on the
     * database's. So a node whose clock runs ahead can neither purge nor take over another node's
     * record early, and a node never acts on a record that its own clock still sees live (it reports
     * such a record as it is). Empty where the dialect has no database clock ({@link Dialect#nowMillis}).
     */
    private static String databaseNowBound(Dialect dialect) {
        return dialect.nowMillis() == null ? "" : " AND expires_at <= " + dialect.nowMillis();
    }

    private void bindPurge(PreparedStatement ps, int first, long now, long graceEnd) throws SQLException {
        ps.setLong(first, now);
        ps.setString(first + 1, RecordStatus.IN_PROGRESS.name());
        ps.setLong(first + 2, graceEnd);
        if (dialect.nowMillis() != null) {
            ps.setLong(first + 3, settings.claimGrace().toMillis());
        }
    }

    /**
     * In a JTA container, on the databases whose claim statement leaves the caller's transaction usable
     * after a failure ({@link #notJoinableReason}).
     */
    @Override
    public boolean canJoinCallerTransaction() {
        if (connections.canJoin() && !dialect.joinable()) {
            LOG.log(
                    Level.DEBUG,
                    "the JPA store cannot join callers'' transactions on {0}: {1}",
                    dialect.configName(),
                    notJoinableReason(dialect));
        }
        return connections.canJoin() && dialect.joinable();
    }

    /**
     * Claims and releases a random key once, at startup: proves that the statements of this dialect
     * work on this table with this user.
     */
    void probe() {
        // 64 hex digits, the shape of a real namespaced key.
        String key = (java.util.UUID.randomUUID().toString() + java.util.UUID.randomUUID()).replace("-", "");
        try {
            connections.separate(c -> {
                IdempotencyRecord claim =
                        normalized(RecordLifecycle.newClaim(key, "startup-probe", "-", now(), Duration.ofMinutes(1)));
                ClaimResult r = claimOn(c, claim, now(), false);
                if (!r.claimed()) {
                    throw new SQLException("the probe's fresh key was not claimable");
                }
                try (PreparedStatement ps = c.prepareStatement(deleteSql)) {
                    bindFence(ps, 1, expectedClaim(key, "startup-probe"));
                    if (!settled(ps)) {
                        throw new SQLException("the probe's claim could not be released");
                    }
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store cannot claim and release a key"
                            + " in its table " + TABLE + " (database " + dialect.configName() + "): " + e
                            + ". Check that the data source's user may SELECT, INSERT, UPDATE and DELETE rows of "
                            + TABLE
                            + " and that the table has the shipped columns (" + dialect.ddlResource() + "), and check '"
                            + JpaStoreSettings.DIALECT + "'.",
                    e);
        }
    }

    /**
     * Runs a call again after a deadlock or a serialization failure, and after a lost connection: the
     * pool may still hold connections that a database blip broke, each of which fails once and is then
     * evicted ({@link Connections#evictingBroken}), so the next attempt takes another. A claim is safe to
     * repeat: an INSERT that landed before its answer was lost is found as this owner's own claim.
     */
    private static <T> T retrying(SqlCall<T> call) throws SQLException {
        long started = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                return call.call();
            } catch (SQLException e) {
                boolean lost =
                        Connections.isConnectionLoss(e) && System.nanoTime() - started < CONNECTION_RETRY_WINDOW_NANOS;
                if (lost && !(e instanceof Connections.Unobtainable)) {
                    // A pooled connection that turned out dead, now evicted: take the next. Bounded by time,
                    // not by attempts, since a pool may hold more dead connections than that.
                    if (attempt >= ATTEMPTS) {
                        pause(CONNECTION_RETRY_PAUSE_MILLIS, e);
                    }
                    continue;
                }
                if (attempt >= ATTEMPTS || !(SqlFailures.isRetryable(e) || lost)) {
                    throw e;
                }
            }
        }
    }

    @FunctionalInterface
    private interface SqlCall<T> {
        T call() throws SQLException;
    }

    /**
     * Bounds the statement's lock waits by the lock timeout: by the {@link #watchdog} where the dialect
     * {@linkplain Dialect#boundsByCancelling cancels}, else by a query timeout where that has no side
     * effect. End the returned watch once the statement has executed.
     */
    private StatementWatchdog.Watch bound(Statement ps) throws SQLException {
        if (watchdog != null) {
            return watchdog.watch(ps);
        }
        if (dialect.boundsWithQueryTimeout()) {
            ps.setQueryTimeout(timeoutSeconds);
        }
        return StatementWatchdog.NONE;
    }

    /**
     * Runs one execution of {@code ps} ({@code ps::executeUpdate}, {@code ps::executeQuery}, {@code
     * ps::execute}) with its lock waits bounded. The watch ends when the execution returns: the
     * PostgreSQL driver (the one the watchdog serves) has then read every row, as no fetch size is set.
     */
    private <T> T bounded(Statement ps, SqlCall<T> execution) throws SQLException {
        StatementWatchdog.Watch watch = bound(ps);
        try {
            return execution.call();
        } finally {
            watch.end();
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private IdempotencyRecord record(ResultSet rs, int first, String key) throws SQLException {
        return new IdempotencyRecord(
                key,
                RecordStatus.valueOf(rs.getString(first).trim()),
                rs.getString(first + 1),
                rs.getString(first + 2),
                Instant.ofEpochMilli(rs.getLong(first + 3)),
                outcome(rs, first + 4),
                Instant.ofEpochMilli(rs.getLong(first + 5)));
    }

    /** The outcome column's bytes; Derby reads a BLOB only as a {@link java.sql.Blob}. */
    private byte[] outcome(ResultSet rs, int column) throws SQLException {
        if (dialect != Dialect.DERBY) {
            return rs.getBytes(column);
        }
        java.sql.Blob blob = rs.getBlob(column);
        if (blob == null) {
            return null;
        }
        try {
            return blob.getBytes(1, (int) blob.length());
        } finally {
            blob.free();
        }
    }

    private IdempotencyStoreUnavailableException unavailable(
            String action, String operation, String key, SQLException e) {
        String hash = key == null ? null : keyHash(key);
        return new IdempotencyStoreUnavailableException(
                operation,
                hash,
                "The JPA idempotency store could not " + action + (hash == null ? "" : " key #" + hash)
                        + " because the database failed: " + e + ". Retry later; if it persists, check the data"
                        + " source and the database.",
                e);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static IdempotencyRecord normalized(IdempotencyRecord r) {
        // What the row holds: milliseconds.
        return new IdempotencyRecord(
                r.key(),
                r.status(),
                r.owner(),
                r.fingerprint(),
                r.expiresAt().truncatedTo(ChronoUnit.MILLIS),
                r.outcome(),
                r.createdAt() == null ? null : r.createdAt().truncatedTo(ChronoUnit.MILLIS));
    }

    private static String notJoinableReason(Dialect dialect) {
        return dialect == Dialect.DERBY
                ? "Derby rolls a whole transaction back when a lock wait times out, and a joined duplicate waits on"
                        + " the first caller's uncommitted row."
                : "the store knows no claim statement for it that leaves the caller's transaction usable after a"
                        + " failure.";
    }
}
