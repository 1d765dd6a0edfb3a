package dev.idempotency.internal.stores.redis;

import static dev.idempotency.spi.StoreSupport.MAX_MILLIS;
import static dev.idempotency.spi.StoreSupport.keyHash;
import static dev.idempotency.spi.StoreSupport.millis;
import static dev.idempotency.spi.StoreSupport.saturatedAdd;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * A store on Redis: one server, a Sentinel-managed primary, or Redis Cluster. One Redis string per
 * record ({@code <prefix><key>}, in {@link RedisRecordCodec}'s binary form), so every record lives in
 * one hash slot. Every write is one atomic server-side step conditioned on the value that
 * {@link RecordLifecycle}'s decision was made on: a claim is {@code SET NX PX GET}; complete, release
 * and takeover go through a compare-and-set script ({@link #CAS_SCRIPT}) that acts only if the value is
 * still byte for byte the judged one (owner tokens are unique, so that is the owner fencing). A
 * completion compares against the bytes its claim wrote, without a read first. Redis expires every
 * record itself ({@code PX}: the ttl, or the lease plus {@code claim-grace}), a takeover also waits for
 * Redis's clock ({@code TIME}), and {@code wait-replicas} makes claims and completions wait for
 * replicas. The design and its guarantees: docs/redis-store.md.
 */
public final class RedisIdempotencyStore implements IdempotencyStore, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisIdempotencyStore.class.getName());

    /**
     * Replaces (ARGV[2], with PX ARGV[3]) or deletes (ARGV[2] empty) KEYS[1] if its value is exactly
     * ARGV[1]; returns 1 if it did, 0 if the value was different or absent. With ARGV[4] (a takeover:
     * the judged record's expiry in epoch milliseconds), returns 2 and changes nothing while Redis's
     * own clock ({@code TIME}) is before it: the record is still live, whatever the node's clock says.
     * With ARGV[5] (a completion or a release), publishes KEYS[1] on channel ARGV[5] once it changed it:
     * the notice that wakes the waiting duplicates on every node ({@link #notifySettlements}).
     */
    static final String CAS_SCRIPT = "local v = redis.call('GET', KEYS[1])\n"
            + "if v ~= ARGV[1] then return 0 end\n"
            + "if ARGV[4] and ARGV[4] ~= '' then\n"
            + "  local t = redis.call('TIME')\n"
            + "  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) < tonumber(ARGV[4]) then return 2 end\n"
            + "end\n"
            + "if ARGV[2] == '' then redis.call('DEL', KEYS[1])\n"
            + "else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end\n"
            + "if ARGV[5] then redis.call('PUBLISH', ARGV[5], KEYS[1]) end\n"
            + "return 1\n";

    /**
     * Writes KEYS[1]'s value ARGV[1] again, keeping its expiry, if it still is ARGV[1]; returns 1 if it
     * did, else 0. A write of the connection that {@code WAIT} runs on: {@code WAIT} counts only the
     * writes of its own connection, and a retried claim that finds its earlier {@code SET} wrote nothing
     * on this one ({@code SET NX} that sets nothing is not replicated).
     */
    static final String REWRITE_SCRIPT = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\n"
            + "redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')\n"
            + "return 1\n";

    private static final byte[] REWRITE_SOURCE = REWRITE_SCRIPT.getBytes(StandardCharsets.UTF_8);
    private static final byte[] CAS_SOURCE = CAS_SCRIPT.getBytes(StandardCharsets.UTF_8);
    private static final byte[] CAS_SHA =
            java.util.HexFormat.of().formatHex(sha1(CAS_SOURCE)).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DELETE = new byte[0];

    /** How often a decision is retried after the record changed between the read and the write. */
    private static final int MAX_ATTEMPTS = 64;
    /** How long a claim or a read tries other connections after a lost one; a Redis that is down fails fast. */
    private static final long LOST_CONNECTION_RETRY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
    /** Claims whose written bytes are remembered at most (a few hundred bytes each). */
    static final int MAX_WRITTEN = 10_000;

    private static final long SWEEP_INTERVAL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
    private static final java.util.concurrent.atomic.AtomicLongFieldUpdater<RedisIdempotencyStore> SWEEP =
            java.util.concurrent.atomic.AtomicLongFieldUpdater.newUpdater(RedisIdempotencyStore.class, "nextSweep");

    private final UnifiedJedis redis;
    private final Clock clock;
    private final String prefix;
    private final long graceMillis;
    private final int waitReplicas;
    private final long waitTimeoutMillis;
    private final long settlePatienceNanos;
    private final String where;
    private final boolean ownsClient;

    /** The channel of settlement notices, {@code <prefix>settled} ({@link #notifySettlements}). */
    private final byte[] channel;

    private final java.util.concurrent.CopyOnWriteArrayList<java.util.function.Consumer<String>> settledListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean subscribing =
            new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;
    private volatile redis.clients.jedis.BinaryJedisPubSub subscription;
    /**
     * The exact bytes this store last wrote for each claim it holds (claim, takeover, renewal), so that
     * the completion is one compare-and-set against them instead of a GET and a compare-and-set. Only a
     * hint: the script compares bytes, so a record changed since (taken over, released by an operator)
     * fails the comparison and the completion decides on what it reads, as without it.
     */
    private final ConcurrentHashMap<String, Written> written = new ConcurrentHashMap<>();
    /** When the remembered claims may be swept for expired ones next ({@link System#nanoTime}). */
    private volatile long nextSweep = System.nanoTime();

    /**
     * @param redis the client (standalone, Sentinel or cluster)
     * @param settings the store's settings (prefix, grace, replica acknowledgements)
     * @param clock the store's clock
     * @param ownsClient whether {@link #close()} closes the client
     */
    public RedisIdempotencyStore(UnifiedJedis redis, RedisStoreSettings settings, Clock clock, boolean ownsClient) {
        this.redis = redis;
        this.clock = clock;
        this.prefix = settings.keyPrefix();
        this.graceMillis = settings.claimGrace().toMillis();
        this.waitReplicas = settings.waitReplicas();
        this.waitTimeoutMillis = Math.max(1, settings.waitTimeout().toMillis());
        this.settlePatienceNanos = settings.settlePatience().toNanos();
        this.where = settings.describe();
        this.ownsClient = ownsClient;
        this.channel = (prefix + "settled").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Subscribes to the channel {@code <prefix>settled}, on which every completion and release
     * publishes its key (from the compare-and-set script, so a settlement costs no extra round trip),
     * and passes the keys of this store's records to {@code listener}. The subscription holds one
     * connection of the client, on a daemon thread; after a lost connection it subscribes again a
     * second later (notices published meanwhile are lost: waiters look at the store at least every 250
     * ms).
     */
    @Override
    public boolean notifySettlements(java.util.function.Consumer<String> listener) {
        settledListeners.add(listener);
        if (subscribing.compareAndSet(false, true)) {
            Thread t = new Thread(this::subscribe, "idempotency-redis-settled");
            t.setDaemon(true);
            t.start();
        }
        return true;
    }

    private void subscribe() {
        while (!closed) {
            redis.clients.jedis.BinaryJedisPubSub s = new redis.clients.jedis.BinaryJedisPubSub() {
                @Override
                public void onMessage(byte[] from, byte[] message) {
                    String rk = new String(message, StandardCharsets.UTF_8);
                    if (rk.startsWith(prefix)) {
                        String key = rk.substring(prefix.length());
                        for (java.util.function.Consumer<String> l : settledListeners) {
                            l.accept(key);
                        }
                    }
                }
            };
            subscription = s;
            try {
                redis.subscribe(s, channel);
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                // Redis restarting or failing over: waiters poll meanwhile; no operator action.
                LOG.log(System.Logger.Level.DEBUG, "settlement notices from " + where + " lost; subscribing again", e);
            }
            if (!closed) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Where the store is, for logs (never with the password). */
    public String where() {
        return where;
    }

    /** The client, for diagnostics and tests. */
    public UnifiedJedis client() {
        return redis;
    }

    /** The Redis key of a record key. */
    public byte[] redisKey(String key) {
        return (prefix + key).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        byte[] rk = redisKey(key);
        return retried("claim", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Instant now = clock.instant();
                IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
                byte[] value = RedisRecordCodec.encode(claim);
                long px = saturatedAdd(millis(lease), graceMillis);
                Acked<byte[]> set = setGet(rk, value, SetParams.setParams().nx().px(px));
                byte[] seen = set.value();
                if (seen == null) {
                    acknowledgedClaim(rk, key, value, set.acked());
                    remember(key, owner, value, px);
                    return ClaimResult.claimed(claim);
                }
                IdempotencyRecord existing = decode(key, seen);
                if (RecordLifecycle.isOwnedBy(existing, owner)) {
                    // Our own write, whose answer (or WAIT) an earlier attempt lost: used only once the
                    // replicas have it, as on a first attempt.
                    if (waitReplicas > 0) {
                        Acked<Long> again = acknowledgedRewrite(rk, seen);
                        if (again.value() != 1) {
                            continue; // changed since the SET read it: decide again
                        }
                        acknowledgedClaim(rk, key, seen, again.acked());
                    }
                    remember(key, owner, seen, px);
                    return ClaimResult.claimed(existing);
                }
                if (!RecordLifecycle.isClaimable(existing, now)) {
                    return ClaimResult.existing(existing);
                }
                // A lease or retention that ended but whose key Redis still holds (the claim grace):
                // take it over only if it is still exactly what was judged, and if it ended on Redis's
                // clock too (a node whose clock runs ahead must not take over early).
                Acked<Long> cas = acknowledgedCas(
                        rk, seen, value, px, existing.expiresAt().toEpochMilli(), false);
                long r = cas.value();
                if (r == 1) {
                    acknowledgedClaim(rk, key, value, cas.acked());
                    remember(key, owner, value, px);
                    return ClaimResult.claimed(claim, existing);
                }
                if (r == 2) {
                    return ClaimResult.existing(existing);
                }
            }
            throw contended("claim", key);
        });
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        byte[] rk = redisKey(key);
        return retried("read", key, () -> {
            byte[] v = redis.get(rk);
            if (v == null) {
                return Optional.empty();
            }
            IdempotencyRecord r = decode(key, v);
            return RecordLifecycle.isLive(r, clock.instant()) ? Optional.of(r) : Optional.empty();
        });
    }

    /**
     * Completes the owner's claim, retrying a transient failure for {@code
     * idempotency.redis.settle-patience}: one compare-and-set against the bytes this store wrote for the
     * claim when it holds them, else (or when the record changed since) GET, decide, compare-and-set. A
     * retry that finds the owner's own COMPLETED record reports it done: an earlier attempt's write
     * landed and only its answer was lost.
     */
    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        byte[] rk = redisKey(key);
        Written mine = forget(key, owner);
        return guarded(
                "complete",
                key,
                () -> persistently("complete", key, retry -> {
                    if (!retry && mine != null) {
                        IdempotencyRecord claimed = decode(key, mine.bytes);
                        IdempotencyRecord done = RecordLifecycle.complete(claimed, outcome, clock.instant(), ttl);
                        Acked<Long> cas =
                                acknowledgedCas(rk, mine.bytes, RedisRecordCodec.encode(done), millis(ttl), null, true);
                        if (cas.value() == 1) {
                            acknowledgedCompletion(key, cas.acked());
                            return true;
                        }
                    }
                    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                        byte[] seen = redis.get(rk);
                        IdempotencyRecord existing = seen == null ? null : decode(key, seen);
                        if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                            return retry && existing != null && RecordLifecycle.isCompletedBy(existing, owner);
                        }
                        IdempotencyRecord done = RecordLifecycle.complete(existing, outcome, clock.instant(), ttl);
                        Acked<Long> cas =
                                acknowledgedCas(rk, seen, RedisRecordCodec.encode(done), millis(ttl), null, true);
                        if (cas.value() == 1) {
                            acknowledgedCompletion(key, cas.acked());
                            return true;
                        }
                    }
                    throw contended("complete", key);
                }));
    }

    /**
     * Extends the owner's claim (GET, decide with {@link RecordLifecycle#renew}, compare-and-set with
     * the claim's {@code PX}: the new lease plus the claim grace). Not retried: the engine renews again
     * a third of a lease later.
     */
    @Override
    public boolean renew(String key, String owner, Duration lease) {
        byte[] rk = redisKey(key);
        return retried("renew", key, () -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                byte[] seen = redis.get(rk);
                IdempotencyRecord existing = seen == null ? null : decode(key, seen);
                if (!RecordLifecycle.isOwnedBy(existing, owner)) {
                    return false;
                }
                Instant now = clock.instant();
                IdempotencyRecord renewed = RecordLifecycle.renew(existing, now, lease);
                long px =
                        saturatedAdd(Math.max(0, renewed.expiresAt().toEpochMilli() - now.toEpochMilli()), graceMillis);
                byte[] next = RedisRecordCodec.encode(renewed);
                if (compareAndSet(rk, seen, next, px)) {
                    remember(key, owner, next, px);
                    return true;
                }
            }
            throw contended("renew", key);
        });
    }

    /** Releases the owner's claim, retrying a transient failure like {@link #complete}. */
    @Override
    public boolean release(String key, String owner) {
        forget(key, owner);
        return fencedDelete("release", key, existing -> RecordLifecycle.isOwnedBy(existing, owner), true);
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return fencedDelete("delete", key, existing -> RecordLifecycle.isCompletedBy(existing, owner), false);
    }

    /** Deletes the record if {@code mayDelete} holds for it, and only if it is still that record. */
    private boolean fencedDelete(
            String action, String key, Predicate<IdempotencyRecord> mayDelete, boolean persistent) {
        byte[] rk = redisKey(key);
        Function<Boolean, Boolean> delete = retry -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                byte[] seen = redis.get(rk);
                if (!mayDelete.test(seen == null ? null : decode(key, seen))) {
                    return false;
                }
                // A release is a settlement: its waiters are told (a deletion on request is not).
                if (casResult(rk, seen, DELETE, 0, null, persistent) == 1) {
                    return true;
                }
            }
            throw contended(action, key);
        };
        return guarded(action, key, () -> persistent ? persistently(action, key, delete) : delete.apply(false));
    }

    /**
     * Runs a complete or release again after a transient failure ({@link #isTransient}) until it
     * succeeds or the settle patience has passed; {@code attempt} is told whether an earlier attempt
     * may have been applied. The operation already ran: an outcome that is not stored lets a retry run
     * it again once the lease ends, so waiting out a failover is worth more than answering fast.
     */
    private <T> T persistently(String action, String key, Function<Boolean, T> attempt) {
        long deadline = System.nanoTime() + settlePatienceNanos;
        long pauseMillis = 50;
        for (boolean retry = false; ; retry = true) {
            try {
                return attempt.apply(retry);
            } catch (JedisException e) {
                if (!isTransient(e) || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Redis {0} of key {1} failed ({2}); retrying",
                        action,
                        keyHash(key),
                        e.toString());
                try {
                    Thread.sleep(Math.min(pauseMillis, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pauseMillis = Math.min(1000, pauseMillis * 2);
            }
        }
    }

    /**
     * Whether a retry can overcome the failure: a lost or refused connection, no free connection in the
     * pool, a cluster redirecting or electing, or a server loading its data or turned replica by a
     * failover.
     */
    static boolean isTransient(JedisException e) {
        if (e instanceof JedisConnectionException || e instanceof JedisClusterOperationException) {
            return true;
        }
        if (e.getCause() instanceof java.util.NoSuchElementException) {
            return true; // the pool had no connection to give within the timeout
        }
        String m = e.getMessage() == null ? "" : e.getMessage();
        return e instanceof JedisDataException
                && (m.startsWith("LOADING")
                        || m.startsWith("READONLY")
                        || m.startsWith("MASTERDOWN")
                        || m.startsWith("TRYAGAIN")
                        || m.startsWith("CLUSTERDOWN"));
    }

    /**
     * Deletes nothing and returns 0: Redis removes each key when its {@code PX} ends, and an
     * IN_PROGRESS record whose lease ended must stay until its grace ends so that its owner can still
     * complete it.
     */
    @Override
    public int purgeExpired(int max) {
        return 0;
    }

    /** Closes the client if this store created it. */
    @Override
    public void close() {
        closed = true;
        redis.clients.jedis.BinaryJedisPubSub s = subscription;
        if (s != null && s.isSubscribed()) {
            try {
                s.unsubscribe();
            } catch (RuntimeException e) {
                // the connection is gone already; the thread ends with it
            }
        }
        if (ownsClient) {
            redis.close();
        }
    }

    /**
     * Checks that Redis answers and can run the store's commands: a PING, the server version (SET
     * with both NX and GET needs Redis 7), and the compare-and-set script loaded.
     *
     * @throws IdempotencyStoreUnavailableException Redis cannot be reached or is too old
     */
    public void verify() {
        guarded("start", "", () -> {
            redis.ping();
            String info = redis.info("server");
            String version = info.lines()
                    .filter(l -> l.startsWith("redis_version:"))
                    .map(l -> l.substring("redis_version:".length()).trim())
                    .findFirst()
                    .orElse("unknown");
            int major = version.matches("\\d+\\..*") ? Integer.parseInt(version.substring(0, version.indexOf('.'))) : 0;
            if (major < 7) {
                throw new IdempotencyStoreUnavailableException(
                        null,
                        null,
                        "Redis at " + where + " is version " + version
                                + "; the idempotency store needs Redis 7 or later (SET with NX and GET).",
                        null);
            }
            // Loads the script (on the node that serves a probe key); other nodes load it on first use.
            compareAndSet(redisKey("startup-probe"), new byte[] {0}, DELETE, 0);
            return null;
        });
        checkEviction(guarded("start", "", () -> redis.info("memory")));
    }

    /**
     * Refuses a Redis that may evict the store's records: every record carries an expiry, so under
     * {@code maxmemory} any policy but {@code noeviction} (the {@code volatile-*} ones included) can
     * delete a completed or running record, and its operation would run again. Read from {@code INFO},
     * which managed services that disable {@code CONFIG} still answer; where it says nothing, a WARNING.
     *
     * @throws IdempotencyConfigurationException Redis has a memory limit and an evicting policy
     */
    void checkEviction(String memoryInfo) {
        String policy = infoField(memoryInfo, "maxmemory_policy");
        String limit = infoField(memoryInfo, "maxmemory");
        if (policy == null || limit == null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Redis at {0} does not report its maxmemory-policy; the idempotency store needs"
                            + " maxmemory-policy noeviction (or no maxmemory), or Redis may delete records under"
                            + " memory pressure and their operations run again. Check the server's settings.",
                    where);
            return;
        }
        if (!policy.equals("noeviction") && !limit.equals("0")) {
            throw new IdempotencyConfigurationException("Redis at " + where + " has maxmemory " + limit
                    + " with maxmemory-policy " + policy + ", which evicts keys that carry an expiry, as every"
                    + " idempotency record does: a completed operation's record could be deleted and the operation"
                    + " run again. Set maxmemory-policy noeviction on that Redis (a full Redis then refuses new"
                    + " claims, which the store reports as unavailable), or use a Redis of its own for the store.");
        }
    }

    private static String infoField(String info, String name) {
        return info.lines()
                .filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).trim())
                .findFirst()
                .orElse(null);
    }

    /**
     * Remembers the bytes written for a claim, until it is completed or released, or its Redis key
     * expires ({@code px}). Beyond {@link #MAX_WRITTEN} claims (calls held after a timeout are never
     * completed by their owner) expired entries are dropped first, and a claim that still finds no room
     * is not remembered: its completion reads first.
     */
    private void remember(String key, String owner, byte[] bytes, long px) {
        long now = System.nanoTime();
        if (written.size() >= MAX_WRITTEN) {
            // A sweep reads every entry: at most one a second, not one per claim while the map is full.
            long due = nextSweep;
            if (now - due >= 0 && SWEEP.compareAndSet(this, due, now + SWEEP_INTERVAL_NANOS)) {
                written.values().removeIf(w -> now - w.until >= 0);
            }
            if (written.size() >= MAX_WRITTEN) {
                return;
            }
        }
        written.put(key, new Written(owner, bytes, now + Math.min(px, MAX_MILLIS) * 1_000_000L));
    }

    /** Forgets what was written for the owner's claim (not another owner's), and returns it. */
    private Written forget(String key, String owner) {
        Written w = written.get(key);
        return w != null && w.owner.equals(owner) && written.remove(key, w) ? w : null;
    }

    /** What this store wrote for a claim: its owner, the exact bytes, until when Redis keeps them. */
    private record Written(String owner, byte[] bytes, long until) {}

    /** The claims whose written bytes are remembered now; for tests. */
    int remembered() {
        return written.size();
    }

    /** Runs the compare-and-set script; see {@link #CAS_SCRIPT}. */
    private boolean compareAndSet(byte[] rk, byte[] expected, byte[] next, long px) {
        return casResult(rk, expected, next, px, null, false) == 1;
    }

    /**
     * Runs the compare-and-set script, with the takeover's expiry check if {@code expiresAt} is set,
     * publishing the settlement if {@code announce}.
     */
    private long casResult(byte[] rk, byte[] expected, byte[] next, long px, Long expiresAt, boolean announce) {
        List<byte[]> keys = List.of(rk);
        List<byte[]> args = casArguments(expected, next, px, expiresAt, announce);
        Object r;
        try {
            r = redis.evalsha(CAS_SHA, keys, args);
        } catch (JedisNoScriptException e) {
            // Not loaded on this node yet (a new node, a restarted or failed-over primary): EVAL loads it.
            r = redis.eval(CAS_SOURCE, keys, args);
        }
        return r instanceof Long l ? l : 0;
    }

    private List<byte[]> casArguments(byte[] expected, byte[] next, long px, Long expiresAt, boolean announce) {
        byte[] pxArg = Long.toString(Math.max(1, px)).getBytes(StandardCharsets.US_ASCII);
        byte[] expiry = expiresAt == null ? DELETE : Long.toString(expiresAt).getBytes(StandardCharsets.US_ASCII);
        if (announce) {
            return List.of(expected, next, pxArg, expiry, channel);
        }
        return expiresAt == null ? List.of(expected, next, pxArg) : List.of(expected, next, pxArg, expiry);
    }

    /** A write's answer, and how many replicas acknowledged it ({@code WAIT}; 0 without wait-replicas). */
    private record Acked<T>(T value, long acked) {}

    /**
     * {@code SET ... GET} and, with wait-replicas, its {@code WAIT} in one pipeline: both on one
     * connection, the one that wrote. {@code WAIT} counts only the writes of the connection it runs on;
     * on another pooled connection (whose own writes the replicas already have) it returns at once.
     */
    private Acked<byte[]> setGet(byte[] rk, byte[] value, SetParams params) {
        if (waitReplicas == 0) {
            return new Acked<>(redis.setGet(rk, value, params), 0);
        }
        try (AbstractPipeline p = redis.pipelined()) {
            Response<byte[]> seen = p.setGet(rk, value, params);
            Response<Long> acked = p.waitReplicas(rk, waitReplicas, waitTimeoutMillis);
            p.sync();
            return new Acked<>(seen.get(), acked.get());
        }
    }

    /** The compare-and-set script and, with wait-replicas, its {@code WAIT} on the same connection. */
    private Acked<Long> acknowledgedCas(
            byte[] rk, byte[] expected, byte[] next, long px, Long expiresAt, boolean announce) {
        if (waitReplicas == 0) {
            return new Acked<>(casResult(rk, expected, next, px, expiresAt, announce), 0);
        }
        try (AbstractPipeline p = redis.pipelined()) {
            // EVAL, not EVALSHA: in a pipeline a NOSCRIPT answer could not be retried on its connection.
            Response<Object> r = p.eval(CAS_SOURCE, List.of(rk), casArguments(expected, next, px, expiresAt, announce));
            Response<Long> acked = p.waitReplicas(rk, waitReplicas, waitTimeoutMillis);
            p.sync();
            return new Acked<>(r.get() instanceof Long l ? l : 0L, acked.get());
        }
    }

    /**
     * {@link #REWRITE_SCRIPT} and its {@code WAIT} on one connection: a retried claim's proof that the
     * replicas have the claim an earlier attempt wrote (they acknowledge this write only after every
     * earlier one).
     */
    private Acked<Long> acknowledgedRewrite(byte[] rk, byte[] value) {
        try (AbstractPipeline p = redis.pipelined()) {
            Response<Object> r = p.eval(REWRITE_SOURCE, List.of(rk), List.of(value));
            Response<Long> acked = p.waitReplicas(rk, waitReplicas, waitTimeoutMillis);
            p.sync();
            return new Acked<>(r.get() instanceof Long l ? l : 0L, acked.get());
        }
    }

    /** Refuses a claim that too few replicas acknowledged, after withdrawing it. */
    private void acknowledgedClaim(byte[] rk, String key, byte[] value, long acked) {
        if (waitReplicas == 0) {
            return;
        }
        if (acked < waitReplicas) {
            compareAndSet(rk, value, DELETE, 0);
            throw new IdempotencyStoreUnavailableException(
                    null,
                    keyHash(key),
                    "Only " + acked + " of the " + waitReplicas + " Redis replicas required by '"
                            + RedisStoreSettings.WAIT_REPLICAS + "' acknowledged the claim within "
                            + waitTimeoutMillis + " ms, so the call was refused before it ran. Check the"
                            + " replicas of " + where + ", or lower '" + RedisStoreSettings.WAIT_REPLICAS + "'.",
                    null);
        }
    }

    private void acknowledgedCompletion(String key, long acked) {
        if (waitReplicas == 0) {
            return;
        }
        if (acked < waitReplicas) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The outcome of key {0} is stored on the Redis primary but only {1} of {2} replicas"
                            + " acknowledged it within {3} ms; a failover now could lose it. Check the replicas"
                            + " of {4}.",
                    keyHash(key),
                    acked,
                    waitReplicas,
                    waitTimeoutMillis,
                    where);
        }
    }

    private IdempotencyRecord decode(String key, byte[] value) {
        try {
            return RedisRecordCodec.decode(key, value);
        } catch (IllegalArgumentException e) {
            throw new IdempotencyStoreUnavailableException(
                    null,
                    keyHash(key),
                    "The Redis key " + prefix + keyHash(key) + "... holds a value that " + e.getMessage()
                            + ". Another application may write under the prefix '" + prefix + "': give this"
                            + " store its own with '" + RedisStoreSettings.KEY_PREFIX + "'.",
                    e);
        }
    }

    /** {@link #guarded}, with {@link #onAnotherConnection}: for the primitives that are safe to repeat. */
    private <T> T retried(String action, String key, Supplier<T> work) {
        return guarded(action, key, () -> onAnotherConnection(work));
    }

    private <T> T guarded(String action, String key, Supplier<T> work) {
        try {
            return work.get();
        } catch (JedisException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Redis {0} of key {1} failed: {2}",
                    action,
                    keyHash(key),
                    e.toString());
            throw new IdempotencyStoreUnavailableException(
                    null,
                    keyHash(key),
                    "Redis at " + where + " failed during " + action + ": " + e.getMessage()
                            + ". Check that Redis is up and reachable (key '"
                            + RedisStoreSettings.URI + "' or its cluster/sentinel keys).",
                    e);
        }
    }

    /**
     * Runs a claim, read or renew again, for up to 2 s, when its connection was lost: after a blip of
     * the network or a Redis restart the pool still holds connections that fail once each (and are then
     * destroyed), and a new connection would serve the call. A claim is safe to repeat: a {@code SET}
     * that landed before its answer was lost is found as this owner's own claim (with wait-replicas,
     * used only once the replicas acknowledge it: a {@code WAIT} cut by a lost connection is never
     * taken for their acknowledgement).
     */
    private static <T> T onAnotherConnection(Supplier<T> action) {
        long started = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (JedisConnectionException e) {
                if (attempt >= 8 || System.nanoTime() - started > LOST_CONNECTION_RETRY_NANOS) {
                    throw e;
                }
            }
        }
    }

    private IdempotencyStoreUnavailableException contended(String action, String key) {
        return new IdempotencyStoreUnavailableException(
                null,
                keyHash(key),
                "The Redis record changed under " + action + " " + MAX_ATTEMPTS + " times in a row; retry the call.",
                null);
    }

    private static byte[] sha1(byte[] data) {
        try {
            return java.security.MessageDigest.getInstance("SHA-1").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java runtime", e);
        }
    }
}
