package dev.idempotency.tokens;

import static dev.idempotency.spi.StoreSupport.keyHash;

import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * One-time tokens (anti-duplicate-submission tokens) on the configured {@link IdempotencyStore}: a
 * client asks for a token before a form or an action, sends it with the action, and the server accepts
 * each token exactly once.
 *
 * <p>Built from the store's primitives, without a state of its own:
 *
 * <ul>
 *   <li>{@link #issue} claims the token's key for the owner (an IN_PROGRESS record whose lease is the
 *       token's lifetime). The token text embeds the expiry the store computed, and the key is a hash
 *       of the whole text, so a client that edits the expiry addresses a key that does not exist.
 *   <li>{@link #consume} is one {@code complete} of that claim, fenced by the owner: an atomic
 *       compare-and-set on every store. Of any number of concurrent consumers exactly one succeeds,
 *       and a consumer that is not the owner never does. Only <em>after</em> the atomic step failed is
 *       the record read, to tell the caller why (used, foreign, unknown); the read never decides.
 *   <li>{@code complete} is fenced by owner, not by time, so expiry is checked too: before the write
 *       against this node's clock (cheap refusal of stale tokens), and after a successful write
 *       against the store's clock, recovered from the completed record's {@code expiresAt}.
 * </ul>
 *
 * <p>Owners are stored as SHA-256 hashes; tokens never reach a log.
 */
public final class OneTimeTokens {

    private static final System.Logger LOG = System.getLogger(OneTimeTokens.class.getName());

    private static final String KEY_DOMAIN = "idempotency-ee/one-time-token";
    private static final String OWNER_DOMAIN = "idempotency-ee/one-time-token-owner";
    private static final String FINGERPRINT = Hashing.sha256Hex(KEY_DOMAIN);
    private static final byte[] USED_MARKER = "used".getBytes(StandardCharsets.UTF_8);
    /**
     * How long past a token's expiry its "used" marker is kept: a late replay of a used token then says
     * "expired" (which it also is) rather than "unknown", whatever the clock skew between nodes.
     */
    private static final Duration USED_MARGIN = Duration.ofMinutes(1);

    private static final int RANDOM_BYTES = 18;
    /** Characters of the random part: 18 bytes in unpadded base64url. */
    private static final int ID_LENGTH = 24;

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final IdempotencyStore store;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param store the store that holds tokens
     * @param clock this node's clock, only for the early refusal of expired tokens; the decisive time is
     *     the store's
     */
    public OneTimeTokens(IdempotencyStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Issues a token that {@code owner} can consume once within {@code ttl}.
     *
     * @param owner who may consume it (a user name, a session id); any text, stored only as a hash
     * @param ttl the token's lifetime; positive
     */
    public IssuedToken issue(String owner, Duration ttl) {
        Objects.requireNonNull(owner, "owner");
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a token's ttl must be positive, was " + ttl);
        }
        byte[] r = new byte[RANDOM_BYTES];
        random.nextBytes(r);
        String id = B64.encodeToString(r);
        // The claim is made under the random part alone first: its result carries the store's expiry,
        // which then becomes part of the token text and of the final key.
        String provisional = key(id);
        ClaimResult claim = store.claim(provisional, ownerToken(owner), FINGERPRINT, ttl);
        if (!claim.claimed()) {
            // 144 random bits: a collision means a broken random source, not bad luck.
            throw new IllegalStateException(
                    "a freshly generated token id is already taken; the random source is broken");
        }
        Instant expiresAt = claim.record().expiresAt();
        String token = id + "." + Long.toString(expiresAt.toEpochMilli(), 36);
        return bind(provisional, token, owner, ttl, expiresAt);
    }

    /**
     * Re-keys the claim under the full token text. The provisional key is released by its owner, so
     * nothing is left behind, and the final claim's lease is the same lifetime.
     */
    private IssuedToken bind(String provisional, String token, String owner, Duration ttl, Instant expiresAt) {
        String ownerToken = ownerToken(owner);
        ClaimResult finalClaim = store.claim(key(token), ownerToken, FINGERPRINT, ttl);
        store.release(provisional, ownerToken);
        if (!finalClaim.claimed()) {
            throw new IllegalStateException("a freshly generated token is already taken; the random source is broken");
        }
        // The final claim's expiry can only be later than the embedded one (the store's clock moved on),
        // so the embedded expiry is the binding one and the record outlives it.
        return new IssuedToken(token, expiresAt);
    }

    /**
     * Consumes a token for {@code owner}: succeeds for exactly one call per issued token, and only for
     * the owner it was issued to, and only before it expires.
     *
     * @param token the token text, or {@code null} when the request carried none
     * @param owner who presents it
     * @return {@link TokenCheck#CONSUMED}, or why the token was refused
     */
    public TokenCheck consume(String token, String owner) {
        Objects.requireNonNull(owner, "owner");
        if (token == null || token.isBlank()) {
            return TokenCheck.MISSING;
        }
        String text = token.strip();
        Optional<Instant> expiresAt = expiry(text);
        if (expiresAt.isEmpty()) {
            return TokenCheck.UNKNOWN;
        }
        String key = key(text);
        Instant localNow = clock.instant();
        if (!localNow.isBefore(expiresAt.get())) {
            return TokenCheck.EXPIRED;
        }
        Duration keepUsed = Duration.between(localNow, expiresAt.get()).plus(USED_MARGIN);
        String ownerToken = ownerToken(owner);
        if (store.complete(key, ownerToken, USED_MARKER, keepUsed)) {
            if (consumedAfterExpiry(key, ownerToken, keepUsed, expiresAt.get())) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "one-time token {0} consumed after its expiry on the store's clock",
                        keyHash(key));
                return TokenCheck.EXPIRED;
            }
            return TokenCheck.CONSUMED;
        }
        return whyRefused(key, ownerToken, expiresAt.get());
    }

    /** The store's now at completion is the completed record's expiry minus the ttl it was given. */
    private boolean consumedAfterExpiry(String key, String ownerToken, Duration keepUsed, Instant expiresAt) {
        Optional<IdempotencyRecord> done = store.read(key);
        if (done.isEmpty() || !done.get().owner().equals(ownerToken)) {
            return false;
        }
        Instant storeNow = done.get().expiresAt().minus(keepUsed);
        return !storeNow.isBefore(expiresAt);
    }

    /** Explains a refusal; called only after the atomic step failed, so it never decides anything. */
    private TokenCheck whyRefused(String key, String ownerToken, Instant expiresAt) {
        Optional<IdempotencyRecord> r = store.read(key);
        if (r.isEmpty()) {
            // Gone: either never issued, or its record ended with its lifetime.
            return clock.instant().isBefore(expiresAt) ? TokenCheck.UNKNOWN : TokenCheck.EXPIRED;
        }
        IdempotencyRecord rec = r.get();
        if (!rec.owner().equals(ownerToken)) {
            return TokenCheck.FOREIGN;
        }
        if (rec.status() == RecordStatus.COMPLETED) {
            return TokenCheck.USED;
        }
        // Ours and still IN_PROGRESS, yet complete failed: the store dropped the claim between the two
        // calls (its lifetime ended); refuse it as expired.
        return TokenCheck.EXPIRED;
    }

    /** The expiry embedded in a token, or empty when the text is not in this module's format. */
    static Optional<Instant> expiry(String token) {
        int dot = token.indexOf('.');
        // The random part is exactly what issue() writes: without this, any "x.y" would be read as a
        // token that expired long ago (its tail as an old base-36 time) and answered "expired".
        if (dot != ID_LENGTH || token.indexOf('.', dot + 1) >= 0 || token.length() > 64 || dot == token.length() - 1) {
            return Optional.empty();
        }
        for (int i = 0; i < dot; i++) {
            char c = token.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && c != '-' && c != '_') {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(Instant.ofEpochMilli(Long.parseLong(token.substring(dot + 1), 36)));
        } catch (NumberFormatException | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }

    /** The store key of a token text. */
    static String key(String token) {
        return Hashing.sha256Hex(KEY_DOMAIN, token);
    }

    /** The owner token stored with a token's claim: a hash, so owner names never reach the store. */
    static String ownerToken(String owner) {
        return Hashing.sha256Hex(OWNER_DOMAIN, owner);
    }
}
