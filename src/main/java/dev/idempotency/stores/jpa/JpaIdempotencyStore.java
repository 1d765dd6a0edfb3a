package dev.idempotency.stores.jpa;

import dev.idempotency.core.CurrentOperation;
import dev.idempotency.core.RecordLifecycle;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordStatus;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.LockModeType;
import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.QueryTimeoutException;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The JPA store: one row per key in {@value IdempotencyRecordEntity#TABLE}, claimed by an INSERT and
 * inspected under {@code SELECT ... FOR UPDATE}.
 *
 * <p>A claim first INSERTs the new IN_PROGRESS row: most keys are new, so the common path is that one
 * statement. Only when the key exists does the store read the row: a live COMPLETED record (which can
 * change only by expiring) is replayed from a plain read; any other row is read again with {@link
 * LockModeType#PESSIMISTIC_WRITE} and {@link RecordLifecycle} decides under that lock (in progress, or
 * take over an ended lease or retention). The INSERT never poisons a transaction that has
 * to go on:
 *
 * <ul>
 *   <li>on PostgreSQL (which aborts a transaction on any error) it is {@code INSERT ... ON CONFLICT DO
 *       NOTHING}, which waits for a conflicting uncommitted insert and then reports 0 rows;
 *   <li>in the {@code separate} mode elsewhere it is a portable {@code persist}; if it fails, its own
 *       transaction is rolled back and the locking read runs in a fresh one, so it sees committed state
 *       rather than the failed transaction's snapshot (on InnoDB this also avoids the shared-to-exclusive
 *       lock upgrade that deadlocks racing duplicates);
 *   <li>in the {@code joined} mode on MariaDB/MySQL it is {@code INSERT IGNORE}; on H2 a plain JDBC
 *       INSERT whose duplicate-key error fails only that statement, caught before JPA can mark the
 *       caller's transaction for rollback.
 * </ul>
 *
 * <p>Complete and release are one fenced statement each, compare-and-set style: an UPDATE (DELETE) of
 * the row {@code WHERE idem_key = ? AND owner_token = ? AND status = 'IN_PROGRESS'}, the SQL form of
 * {@link RecordLifecycle#isOwnedBy}; one row changed means done, none means the claim is not the
 * caller's. A new key therefore costs two statements in all: the claim's INSERT and the completion's
 * UPDATE.
 *
 * <p>Lock waits are bounded by {@code idempotency.jpa.lock-timeout} (a statement timeout, which
 * PostgreSQL applies to lock waits; MariaDB/MySQL and H2 bound them by their own {@code
 * innodb_lock_wait_timeout} and {@code LOCK_TIMEOUT}); a claim
 * whose wait times out reports the key as IN_PROGRESS, so the caller gets the in-progress outcome (409),
 * not a server error. Instants come from the store's {@link Clock}, in milliseconds.
 */
public final class JpaIdempotencyStore implements IdempotencyStore {

    private static final System.Logger LOG = System.getLogger(JpaIdempotencyStore.class.getName());
    private static final int ATTEMPTS = 5;
    private static final int DELETE_CHUNK = 500;
    private static final String TIMEOUT_HINT = "jakarta.persistence.query.timeout";
    /** Stands for the fingerprint of an expected claim, which complete and release never read. */
    private static final String UNREAD_FINGERPRINT = "(not read)";
    /** SQLStates of lock waits that timed out or were cancelled by the statement timeout. */
    private static final Set<String> TIMEOUT_STATES = Set.of("57014", "55P03", "HYT00", "70100");
    /** SQLStates of deadlocks and serialization failures: the transaction can simply run again. */
    private static final Set<String> RETRY_STATES = Set.of("40001", "40P01");

    private final EntityManagerFactory emf;
    private final Transactions transactions;
    private final Dialect dialect;
    private final JpaStoreSettings settings;
    private final Clock clock;
    private final DataSource dataSource;
    private final int timeoutMillis;

    JpaIdempotencyStore(
            EntityManagerFactory emf,
            Transactions transactions,
            Dialect dialect,
            JpaStoreSettings settings,
            Clock clock,
            DataSource dataSource) {
        this.emf = emf;
        this.transactions = transactions;
        this.dialect = dialect;
        this.settings = settings;
        this.clock = clock;
        this.dataSource = dataSource;
        this.timeoutMillis =
                (int) Math.min(Integer.MAX_VALUE, settings.lockTimeout().toMillis());
    }

    /**
     * A store for Java SE on a (pooled) data source, with resource-local transactions: only the {@code
     * separate} mode. Creates the table when {@code idempotency.jpa.create-table} allows.
     *
     * @param dataSource where the table lives
     * @param settings the {@code idempotency.jpa.*} keys
     * @param clock the store's clock
     * @param providerProperties passed to the JPA provider as they are
     */
    public static JpaIdempotencyStore resourceLocal(
            DataSource dataSource, JpaStoreSettings settings, Clock clock, Map<String, String> providerProperties) {
        Dialect dialect = PersistenceUnitBootstrap.dialect(dataSource, settings);
        if (settings.createTable()) {
            PersistenceUnitBootstrap.createTable(dataSource, dialect);
        }
        EntityManagerFactory emf = PersistenceUnitBootstrap.create(
                dataSource, false, settings.provider().orElse(null), providerProperties);
        return new JpaIdempotencyStore(emf, new ResourceLocalTransactions(emf), dialect, settings, clock, dataSource);
    }

    /** Closes the entity manager factory. */
    public void close() {
        emf.close();
    }

    /** The database dialect in use. */
    String dialectName() {
        return dialect.configName();
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        Instant now = now();
        IdempotencyRecord claim = RecordLifecycle.claim(key, owner, fingerprint, now, lease);
        String operation = CurrentOperation.name();
        try {
            if (settings.mode(operation) == TransactionMode.JOINED) {
                return transactions.inCaller(em -> claimIn(em, claim, now, true), String.valueOf(operation));
            }
            return claimSeparately(claim, now);
        } catch (RuntimeException e) {
            if (isTimeout(e)) {
                LOG.log(Level.DEBUG, "key #{0}: lock wait timed out; reporting it in progress", shortHash(key));
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
            throw e;
        }
    }

    private ClaimResult claimSeparately(IdempotencyRecord claim, Instant now) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return transactions.inNew(em -> claimIn(em, claim, now, false));
            } catch (LostInsert lost) {
                // The INSERT failed (a duplicate, most likely) and its transaction is gone: decide in a
                // fresh transaction, whose locking read sees the committed row.
                last = lost;
                Optional<ClaimResult> decided = retrying(() -> transactions.inNew(em -> decide(em, claim, now)));
                if (decided.isPresent()) {
                    return decided.get();
                }
            } catch (RuntimeException e) {
                if (!isRetryable(e)) {
                    throw e;
                }
                last = e;
            }
        }
        throw last instanceof LostInsert ? (RuntimeException) last.getCause() : last;
    }

    private ClaimResult claimIn(EntityManager em, IdempotencyRecord claim, Instant now, boolean joined) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (insert(em, claim, now, joined)) {
                return ClaimResult.claimed(normalized(claim));
            }
            Optional<ClaimResult> decided = decide(em, claim, now);
            if (decided.isPresent()) {
                return decided.get();
            }
            // The row was released or purged between the INSERT and the locking read: insert again.
        }
        throw new IllegalStateException("key #" + shortHash(claim.key()) + " was deleted " + ATTEMPTS
                + " times between an INSERT and a read; the store is under unusual churn");
    }

    /** Inserts the claim; true if inserted, false if the key exists (joined and conflict-free paths). */
    private boolean insert(EntityManager em, IdempotencyRecord claim, Instant now, boolean joined) {
        String conflictFree = dialect.insertIfAbsent();
        if (conflictFree != null && (joined || dialect == Dialect.POSTGRESQL)) {
            long at = now.toEpochMilli();
            int n = em.createNativeQuery(conflictFree)
                    .setParameter(1, claim.key())
                    .setParameter(2, claim.status().name())
                    .setParameter(3, claim.owner())
                    .setParameter(4, claim.fingerprint())
                    .setParameter(5, claim.expiresAt().toEpochMilli())
                    .setParameter(6, at)
                    .setHint(TIMEOUT_HINT, timeoutMillis)
                    .executeUpdate();
            return n == 1;
        }
        if (joined) {
            return insertOverJdbc(claim, now);
        }
        em.persist(new IdempotencyRecordEntity(claim, now));
        try {
            em.flush();
        } catch (PersistenceException e) {
            throw new LostInsert(e);
        }
        return true;
    }

    /**
     * The joined-mode INSERT on H2, on the data source's connection of the caller's transaction: H2
     * fails only the statement on a duplicate key, and catching it here keeps JPA from marking the
     * transaction for rollback.
     */
    private boolean insertOverJdbc(IdempotencyRecord claim, Instant now) {
        if (dialect != Dialect.H2 || dataSource == null) {
            throw new dev.idempotency.IdempotencyConfigurationException("The joined transaction mode of the JPA"
                    + " idempotency store supports PostgreSQL, MariaDB/MySQL and H2, not this database ("
                    + dialect.configName() + "); set '" + JpaStoreSettings.TRANSACTION + "' to separate.");
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(Dialect.plainInsert())) {
            ps.setString(1, claim.key());
            ps.setString(2, claim.status().name());
            ps.setString(3, claim.owner());
            ps.setString(4, claim.fingerprint());
            ps.setLong(5, claim.expiresAt().toEpochMilli());
            ps.setLong(6, now.toEpochMilli());
            ps.setLong(7, now.toEpochMilli());
            ps.setQueryTimeout(Math.max(1, timeoutMillis / 1000));
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return false;
            }
            throw new PersistenceException("claim INSERT of key #" + shortHash(claim.key()) + " failed: " + e, e);
        }
    }

    /**
     * Reads the row under a write lock and decides with {@link RecordLifecycle}: a free key is taken
     * over in place, a live one is reported as it is.
     *
     * @return empty if there is no row
     */
    private Optional<ClaimResult> decide(EntityManager em, IdempotencyRecord claim, Instant now) {
        // A live COMPLETED record can change only by expiring (complete and release act on IN_PROGRESS
        // claims, purge deletes only rows that are not live), so a plain read of one is as good as a
        // locked one, and replays it without the row lock: on PostgreSQL SELECT ... FOR UPDATE writes
        // the lock to the WAL, so every replay waited for an fsync and replays of one key queued.
        IdempotencyRecordEntity seen = plainRow(em, claim.key());
        if (seen != null) {
            IdempotencyRecord existing = seen.toRecord();
            if (existing.status() == RecordStatus.COMPLETED && RecordLifecycle.isLive(existing, now)) {
                return Optional.of(ClaimResult.existing(existing));
            }
            // The locking read below must load the row afresh, not return this managed instance.
            em.detach(seen);
        }
        IdempotencyRecordEntity row = lockedRow(em, claim.key());
        if (row == null) {
            return Optional.empty();
        }
        IdempotencyRecord existing = row.toRecord();
        if (RecordLifecycle.isClaimable(existing, now)) {
            row.replace(claim, now);
            em.flush();
            return Optional.of(ClaimResult.claimed(row.toRecord()));
        }
        return Optional.of(ClaimResult.existing(existing));
    }

    private IdempotencyRecordEntity plainRow(EntityManager em, String key) {
        List<IdempotencyRecordEntity> rows = em.createQuery(
                        "SELECT r FROM IdempotencyRecord r WHERE r.recordKey = :k", IdempotencyRecordEntity.class)
                .setParameter("k", key)
                .setHint(TIMEOUT_HINT, timeoutMillis)
                .getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    private IdempotencyRecordEntity lockedRow(EntityManager em, String key) {
        List<IdempotencyRecordEntity> rows = em.createQuery(
                        "SELECT r FROM IdempotencyRecord r WHERE r.recordKey = :k", IdempotencyRecordEntity.class)
                .setParameter("k", key)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .setHint(TIMEOUT_HINT, timeoutMillis)
                .getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        Instant now = now();
        IdempotencyRecordEntity row = transactions.read(em -> em.find(IdempotencyRecordEntity.class, key));
        if (row == null) {
            return Optional.empty();
        }
        IdempotencyRecord r = row.toRecord();
        return RecordLifecycle.isLive(r, now) ? Optional.of(r) : Optional.empty();
    }

    /**
     * Completes the owner's claim with one fenced statement, compare-and-set style: {@code UPDATE ...
     * WHERE idem_key = ? AND owner_token = ? AND status = 'IN_PROGRESS'}. One row updated means the
     * claim was the owner's and is now COMPLETED; none means it was not (released, taken over, purged,
     * or never made), and the call returns false. No read, no row lock held before the write.
     *
     * <p>The rules stay {@link RecordLifecycle}'s: the WHERE clause is exactly {@link
     * RecordLifecycle#isOwnedBy} (an IN_PROGRESS claim made by that owner, no time bound) in SQL, and the
     * values written are those of {@link RecordLifecycle#complete} applied to that expected claim (status,
     * expiry and outcome; the owner and the fingerprint it keeps are already in the row). See {@link
     * #fence}.
     */
    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        Instant now = now();
        IdempotencyRecord expected = expectedClaim(key, owner);
        IdempotencyRecord done = RecordLifecycle.complete(expected, outcome, now, ttl);
        if (!done.owner().equals(expected.owner()) || !done.fingerprint().equals(expected.fingerprint())) {
            // The UPDATE below writes only status, expiry and outcome; a lifecycle that changed more
            // would need this store to write it too.
            throw new IllegalStateException("RecordLifecycle.complete changed the owner or the fingerprint of a"
                    + " claim; the JPA store's fenced UPDATE must be extended to write them");
        }
        return inMode(em -> fencedTransition(
                em.createNativeQuery("UPDATE " + IdempotencyRecordEntity.TABLE
                                + " SET status = ?1, expires_at = ?2, outcome = ?3, updated_at = ?4 WHERE " + fence(5))
                        .setParameter(1, done.status().name())
                        .setParameter(2, done.expiresAt().toEpochMilli())
                        .setParameter(3, done.outcome())
                        .setParameter(4, now.toEpochMilli()),
                5,
                expected));
    }

    /**
     * Releases the owner's claim with one fenced statement: {@code DELETE ... WHERE idem_key = ? AND
     * owner_token = ? AND status = 'IN_PROGRESS'} (the SQL form of {@link RecordLifecycle#isOwnedBy}).
     * One row deleted means released; none means the claim was not the owner's, and the call returns
     * false.
     */
    @Override
    public boolean release(String key, String owner) {
        IdempotencyRecord expected = expectedClaim(key, owner);
        return inMode(em -> fencedTransition(
                em.createNativeQuery("DELETE FROM " + IdempotencyRecordEntity.TABLE + " WHERE " + fence(1)),
                1,
                expected));
    }

    /**
     * The claim that {@code owner} must hold for complete and release to act. Only its key, owner and
     * status take part in the fence (they are what {@link RecordLifecycle#isOwnedBy} checks); the
     * fingerprint and lease end are not known without a read, and neither the fence nor {@link
     * RecordLifecycle#complete} needs them.
     */
    private static IdempotencyRecord expectedClaim(String key, String owner) {
        IdempotencyRecord expected =
                new IdempotencyRecord(key, RecordStatus.IN_PROGRESS, owner, UNREAD_FINGERPRINT, Instant.EPOCH, null);
        if (!RecordLifecycle.isOwnedBy(expected, owner)) {
            throw new IllegalStateException("RecordLifecycle.isOwnedBy no longer accepts an IN_PROGRESS claim by"
                    + " its own owner; the JPA store's fenced statements must follow its new rule");
        }
        return expected;
    }

    /**
     * The WHERE clause of complete and release, {@link RecordLifecycle#isOwnedBy} in SQL: this key, an
     * IN_PROGRESS claim, of this owner compared byte for byte ({@link Dialect#exactOwner}), with
     * parameters {@code ?first} (key), {@code ?first+1} (owner) and {@code ?first+2} (status).
     */
    private String fence(int first) {
        return "idem_key = ?" + first + " AND " + dialect.exactOwner() + " = ?" + (first + 1) + " AND status = ?"
                + (first + 2);
    }

    /**
     * Runs a native UPDATE or DELETE whose WHERE clause is {@link #fence}, bound from the expected
     * claim. Native, like the claim's INSERT: the provider only binds and sends it (EclipseLink would
     * prepare a JPQL bulk statement anew on every call), and the owner comparison can be made exact.
     * Such statements bypass the persistence context, which is safe here: every call has a fresh entity
     * manager that holds no copy of the row, and the unit has no shared cache ({@code
     * SharedCacheMode.NONE}).
     *
     * @return whether exactly the owner's claim was changed (one row)
     */
    private boolean fencedTransition(jakarta.persistence.Query statement, int first, IdempotencyRecord expected) {
        int rows = statement
                .setParameter(first, expected.key())
                .setParameter(first + 1, expected.owner())
                .setParameter(first + 2, expected.status().name())
                .setHint(TIMEOUT_HINT, timeoutMillis)
                .executeUpdate();
        return rows == 1;
    }

    /**
     * Deletes up to {@code max} rows that are not live, oldest expiry first, in one transaction of its
     * own. The DELETE repeats the expiry condition (the SQL form of {@link
     * RecordLifecycle#isClaimable}), so a row taken over between the SELECT and the DELETE stays.
     */
    @Override
    public int purgeExpired(int max) {
        long now = now().toEpochMilli();
        return retrying(() -> transactions.inNew(em -> {
            List<String> keys = em.createQuery(
                            "SELECT r.recordKey FROM IdempotencyRecord r WHERE r.expiresAt <= :now"
                                    + " ORDER BY r.expiresAt",
                            String.class)
                    .setParameter("now", now)
                    .setMaxResults(max)
                    .getResultList();
            int deleted = 0;
            for (int from = 0; from < keys.size(); from += DELETE_CHUNK) {
                deleted += em.createQuery(
                                "DELETE FROM IdempotencyRecord r WHERE r.recordKey IN :keys AND r.expiresAt <= :now")
                        .setParameter("keys", keys.subList(from, Math.min(keys.size(), from + DELETE_CHUNK)))
                        .setParameter("now", now)
                        .executeUpdate();
            }
            return deleted;
        }));
    }

    @Override
    public boolean joinsCallerTransaction(String operation) {
        return settings.mode(operation) == TransactionMode.JOINED;
    }

    private <T> T inMode(Function<EntityManager, T> work) {
        String operation = CurrentOperation.name();
        if (settings.mode(operation) == TransactionMode.JOINED) {
            return transactions.inCaller(work, String.valueOf(operation));
        }
        return retrying(() -> transactions.inNew(work));
    }

    /** Runs a whole transaction again after a deadlock or serialization failure. */
    private static <T> T retrying(java.util.function.Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !isRetryable(e)) {
                    throw e;
                }
            }
        }
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
                r.outcome());
    }

    static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LockTimeoutException
                    || t instanceof QueryTimeoutException
                    || t instanceof SQLTimeoutException) {
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

    static boolean isRetryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                if ((s.getSQLState() != null && RETRY_STATES.contains(s.getSQLState())) || s.getErrorCode() == 1213) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static String shortHash(String key) {
        return key.length() > 12 ? key.substring(0, 12) : key;
    }

    /** The portable INSERT failed; its transaction must end before the key is inspected. */
    private static final class LostInsert extends RuntimeException {
        LostInsert(PersistenceException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }
}
