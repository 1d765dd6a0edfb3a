package dev.idempotency.messaging;

import static dev.idempotency.spi.StoreSupport.keyHash;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.core.KeepAlive;
import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import dev.idempotency.spi.RecordStatus;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Message-consumer deduplication with an attempt limit, on the configured {@link IdempotencyStore}: a
 * delivery is acknowledged without running ({@link Delivery#DUPLICATE}), skipped after the limit
 * ({@link Delivery#SKIPPED_FAILED}, with a {@link FailedMessage}), refused while another delivery of
 * it runs ({@link IdempotencyInProgressException}), or run as the next attempt. A message is
 * identified by its id and the consumer's name.
 *
 * <p>Composed from the store's primitives only, so it behaves alike on every store; inside a JTA
 * transaction a success counts once the transaction commits, through the caller's {@link Settlement}.
 * The rules: docs/toolkit.md, section 2; how attempts are counted: docs/internals.md, "Message attempts".
 */
public final class MessageDeduplicator {

    /** The message handler's body. */
    @FunctionalInterface
    public interface Handler {
        /** Processes the message. */
        void run() throws Exception;
    }

    private static final System.Logger LOG = System.getLogger(MessageDeduplicator.class.getName());

    private static final String MESSAGE_DOMAIN = "idempotency-ee/message";
    private static final String ATTEMPT_DOMAIN = "idempotency-ee/message-attempt";
    private static final String FINGERPRINT = Hashing.sha256Hex(MESSAGE_DOMAIN);
    private static final String APPLICATION_PART = "application";
    private static final String SUCCEEDED = "succeeded";
    private static final String FAILED = "failed";
    private static final int MAX_ERROR_LENGTH = 500;
    private static final String UNFINISHED =
            "the attempt did not finish (its process stopped, or its lease ended before it did)";

    private final IdempotencyStore store;
    private final MessageSettings settings;
    private final Consumer<FailedMessage> reports;
    private final KeepAlive keepAlive;
    private final String application;
    private final Function<String, OperationEvents> events;
    private final ConcurrentHashMap<String, OperationEvents> consumers = new ConcurrentHashMap<>();

    /**
     * @param store the store that holds message records
     * @param settings lease, retention and the default attempt limit
     * @param reports receives every {@link FailedMessage} (the CDI glue fires it as an event)
     */
    public MessageDeduplicator(IdempotencyStore store, MessageSettings settings, Consumer<FailedMessage> reports) {
        this(store, settings, reports, KeepAlive.OFF);
    }

    /**
     * @param store the store that holds message records
     * @param settings lease, retention and the default attempt limit
     * @param reports receives every {@link FailedMessage} (the CDI glue fires it as an event)
     * @param keepAlive renews a delivery's claim while its handler runs
     */
    public MessageDeduplicator(
            IdempotencyStore store, MessageSettings settings, Consumer<FailedMessage> reports, KeepAlive keepAlive) {
        this(store, settings, reports, keepAlive, "");
    }

    /**
     * @param store the store that holds message records
     * @param settings lease, retention and the default attempt limit
     * @param reports receives every {@link FailedMessage} (the CDI glue fires it as an event)
     * @param keepAlive renews a delivery's claim while its handler runs
     * @param application the application's name in record keys ({@code idempotency.application}), or empty
     */
    public MessageDeduplicator(
            IdempotencyStore store,
            MessageSettings settings,
            Consumer<FailedMessage> reports,
            KeepAlive keepAlive,
            String application) {
        this(store, settings, reports, keepAlive, application, name -> OperationEvents.NONE);
    }

    /**
     * @param store the store that holds message records
     * @param settings lease, retention and the default attempt limit
     * @param reports receives every {@link FailedMessage} (the CDI glue fires it as an event)
     * @param keepAlive renews a delivery's claim while its handler runs
     * @param application the application's name in record keys ({@code idempotency.application}), or empty
     * @param events where a consumer's deliveries are counted, by the name {@code message:<consumer>}
     *     (the engine's {@link dev.idempotency.internal.core.IdempotencyEngine#events}): an attempt run is {@code
     *     executed}, a delivery of a processed or failed message {@code replayed}, a delivery during
     *     another {@code in_progress}, a failed attempt a release
     */
    public MessageDeduplicator(
            IdempotencyStore store,
            MessageSettings settings,
            Consumer<FailedMessage> reports,
            KeepAlive keepAlive,
            String application,
            Function<String, OperationEvents> events) {
        this.events = Objects.requireNonNull(events, "events");
        this.application = Objects.requireNonNull(application, "application");
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.keepAlive = Objects.requireNonNull(keepAlive, "keepAlive");
    }

    /** The settings this deduplicator uses. */
    public MessageSettings settings() {
        return settings;
    }

    /**
     * Handles one delivery with the default attempt limit, outside any transaction.
     *
     * @see #handle(String, String, int, Settlement, Handler)
     */
    public Delivery handle(String consumer, String messageId, Handler handler) throws Exception {
        return handle(consumer, messageId, settings.maxAttempts(), Settlement.IMMEDIATE, handler);
    }

    /**
     * Handles one delivery of a message by the rules in the class description.
     *
     * @param consumer the consumer's stable name
     * @param messageId the message's id (as the producer set it, so that redeliveries carry the same)
     * @param maxAttempts attempts before the message is marked failed, 1 to {@value
     *     MessageSettings#MAX_MAX_ATTEMPTS}
     * @param settlement when a success becomes final (on commit inside a transaction)
     * @param handler the processing
     * @return what happened, when the delivery does not throw
     * @throws IdempotencyInProgressException when another delivery of the message is processing
     * @throws Exception the handler's own exception, after its attempt was recorded
     */
    public Delivery handle(String consumer, String messageId, int maxAttempts, Settlement settlement, Handler handler)
            throws Exception {
        MessageSettings.checkAttempts("maxAttempts", maxAttempts);
        String main = mainKey(consumer, messageId);
        String owner = UUID.randomUUID().toString();
        OperationEvents counted = consumers.computeIfAbsent(consumer, c -> events.apply("message:" + c));
        ClaimResult claim;
        try {
            claim = store.claim(main, owner, FINGERPRINT, settings.lease());
        } catch (IdempotencyStoreUnavailableException e) {
            counted.storeUnavailable();
            throw e;
        }
        if (!claim.claimed()) {
            return existing(consumer, messageId, main, claim.record(), counted);
        }
        keepAlive.track(
                new KeepAlive.Claim(main, owner, settings.lease(), consumer, "message " + keyHash(main)), store);
        try {
            return handleClaimed(
                    consumer,
                    messageId,
                    maxAttempts,
                    settlement,
                    handler,
                    main,
                    owner,
                    counted,
                    RecordLifecycle.isTakeover(claim.replaced()));
        } catch (Exception | Error e) {
            keepAlive.untrack(owner);
            throw e;
        }
    }

    /** Runs a delivery whose claim is held; every way out settles the claim and stops its renewal. */
    private Delivery handleClaimed(
            String consumer,
            String messageId,
            int maxAttempts,
            Settlement settlement,
            Handler handler,
            String main,
            String owner,
            OperationEvents counted,
            boolean tookOver)
            throws Exception {
        int attempt = 0;
        String lastError = null;
        for (int n = 1; n <= maxAttempts; n++) {
            ClaimResult a = store.claim(attemptKey(consumer, messageId, n), owner, FINGERPRINT, settings.retention());
            if (a.claimed()) {
                attempt = n;
                break;
            }
            lastError = attemptError(a.record());
        }
        if (attempt == 0) {
            // Every allowed attempt was used, but no delivery marked the message failed (the last one
            // stopped before it could): do it now.
            try {
                markFailed(consumer, messageId, main, owner, maxAttempts, lastError, true);
            } finally {
                keepAlive.untrack(owner);
            }
            counted.replayed();
            return Delivery.SKIPPED_FAILED;
        }
        final int n = attempt;
        counted.executed(tookOver);
        try {
            handler.run();
        } catch (Exception | Error e) {
            counted.released(ReleaseCause.EXCEPTION);
            failed(consumer, messageId, main, owner, n, maxAttempts, describe(e));
            throw e;
        }
        settlement.afterWork(
                () -> {
                    try {
                        succeeded(consumer, messageId, main, owner, n);
                    } finally {
                        keepAlive.untrack(owner);
                    }
                },
                () -> {
                    counted.released(ReleaseCause.ROLLBACK);
                    try {
                        failed(consumer, messageId, main, owner, n, maxAttempts, "the transaction rolled back");
                    } finally {
                        keepAlive.untrack(owner);
                    }
                });
        return Delivery.PROCESSED;
    }

    private Delivery existing(
            String consumer, String messageId, String main, IdempotencyRecord rec, OperationEvents counted) {
        if (rec.status() == RecordStatus.IN_PROGRESS) {
            counted.refusedInProgress();
            // The remaining lease is only a hint for the broker's redelivery delay, so this node's clock will do.
            throw new IdempotencyInProgressException(
                    consumer, keyHash(main), RecordLifecycle.remaining(rec, Instant.now()));
        }
        Marker m = Marker.parse(rec.outcome());
        counted.replayed();
        if (m.succeeded()) {
            LOG.log(
                    Level.DEBUG,
                    "message {0} of consumer {1} already processed; acknowledged without running",
                    keyHash(main),
                    consumer);
            return Delivery.DUPLICATE;
        }
        report(new FailedMessage(consumer, messageId, m.attempts(), m.error(), true), main);
        return Delivery.SKIPPED_FAILED;
    }

    private void succeeded(String consumer, String messageId, String main, String owner, int attempt) {
        store.complete(attemptKey(consumer, messageId, attempt), owner, bytes("ok"), settings.retention());
        if (!store.complete(main, owner, new Marker(true, attempt, null).bytes(), settings.retention())) {
            LOG.log(
                    Level.WARNING,
                    "message {0} of consumer {1} was processed, but another delivery took it over after this one''s lease"
                            + " ({2}) ended without a renewal (the store was unreachable, or the keep-alive is off);"
                            + " check the store, or raise {3}",
                    named(main, messageId),
                    consumer,
                    settings.lease(),
                    MessageSettings.LEASE);
        }
    }

    private void failed(
            String consumer, String messageId, String main, String owner, int attempt, int maxAttempts, String error) {
        store.complete(
                attemptKey(consumer, messageId, attempt), owner, bytes(FAILED + "\n" + error), settings.retention());
        if (attempt >= maxAttempts) {
            markFailed(consumer, messageId, main, owner, attempt, error, false);
        } else {
            store.release(main, owner);
            LOG.log(
                    Level.INFO,
                    "message {0} of consumer {1} failed attempt {2} of {3}; the next delivery runs it again",
                    named(main, messageId),
                    consumer,
                    attempt,
                    maxAttempts);
        }
    }

    private void markFailed(
            String consumer,
            String messageId,
            String main,
            String owner,
            int attempts,
            String error,
            boolean redelivery) {
        store.complete(main, owner, new Marker(false, attempts, error).bytes(), settings.retention());
        report(new FailedMessage(consumer, messageId, attempts, error, redelivery), main);
    }

    private void report(FailedMessage failed, String main) {
        LOG.log(
                Level.WARNING,
                failed.redelivery()
                        ? "message {0} of consumer {1} failed {2} attempts earlier; this delivery was skipped, not processed"
                        : "message {0} of consumer {1} failed its last allowed attempt ({2}); it is marked failed and"
                                + " later deliveries are skipped",
                named(main, failed.messageId()),
                failed.consumer(),
                failed.attempts());
        try {
            reports.accept(failed);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "an observer of FailedMessage threw; the message stays marked failed", e);
        }
    }

    /**
     * Reads back where a message stands, for operations.
     *
     * @param consumer the consumer name
     * @param messageId the message id
     */
    public MessageStatus status(String consumer, String messageId) {
        Optional<IdempotencyRecord> main = store.read(mainKey(consumer, messageId));
        int attempts = 0;
        String lastError = null;
        for (int n = 1; n <= MessageSettings.MAX_MAX_ATTEMPTS; n++) {
            Optional<IdempotencyRecord> a = store.read(attemptKey(consumer, messageId, n));
            if (a.isEmpty()) {
                break;
            }
            attempts = n;
            String e = attemptError(a.get());
            if (e != null) {
                lastError = e;
            }
        }
        MessageState state;
        if (main.isEmpty()) {
            state = attempts > 0 ? MessageState.AWAITING_RETRY : MessageState.UNSEEN;
        } else if (main.get().status() == RecordStatus.IN_PROGRESS) {
            state = MessageState.PROCESSING;
        } else {
            Marker m = Marker.parse(main.get().outcome());
            state = m.succeeded() ? MessageState.SUCCEEDED : MessageState.FAILED;
            attempts = Math.max(attempts, m.attempts());
            if (m.error() != null) {
                lastError = m.error();
            }
        }
        return new MessageStatus(consumer, messageId, state, attempts, lastError);
    }

    /** The error an attempt record holds: null for a success, a note for one that never finished. */
    private static String attemptError(IdempotencyRecord a) {
        if (a.status() == RecordStatus.IN_PROGRESS) {
            return UNFINISHED;
        }
        String text = new String(a.outcome(), StandardCharsets.UTF_8);
        return text.startsWith(FAILED + "\n") ? text.substring(FAILED.length() + 1) : null;
    }

    /** The record key of a message; with an application name, two more parts (length-prefixed: no collision). */
    private String mainKey(String consumer, String messageId) {
        return application.isEmpty()
                ? Hashing.sha256Hex(MESSAGE_DOMAIN, consumer, messageId)
                : Hashing.sha256Hex(MESSAGE_DOMAIN, consumer, messageId, APPLICATION_PART, application);
    }

    private String attemptKey(String consumer, String messageId, int n) {
        return application.isEmpty()
                ? Hashing.sha256Hex(ATTEMPT_DOMAIN, consumer, messageId, Integer.toString(n))
                : Hashing.sha256Hex(
                        ATTEMPT_DOMAIN, consumer, messageId, Integer.toString(n), APPLICATION_PART, application);
    }

    /**
     * A message as log lines name it: the hash of its record key, and the broker's id (shortened), so
     * that an operator can find the message in the broker or the dead-letter table.
     */
    static String named(String main, String messageId) {
        String id = messageId.length() <= 100 ? messageId : messageId.substring(0, 97) + "...";
        return keyHash(main) + " (id " + id + ")";
    }

    /** {@code class: message}, shortened: enough for operations to see what failed. */
    static String describe(Throwable t) {
        String s = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        return s.length() <= MAX_ERROR_LENGTH ? s : s.substring(0, MAX_ERROR_LENGTH - 3) + "...";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The outcome stored on a message's main record: {@code succeeded|failed \n attempts [\n error]}. */
    private record Marker(boolean succeeded, int attempts, String error) {

        byte[] bytes() {
            return MessageDeduplicator.bytes(
                    (succeeded ? SUCCEEDED : FAILED) + "\n" + attempts + (error == null ? "" : "\n" + error));
        }

        static Marker parse(byte[] outcome) {
            String[] parts = new String(outcome, StandardCharsets.UTF_8).split("\n", 3);
            boolean ok = parts[0].equals(SUCCEEDED);
            int attempts = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return new Marker(ok, attempts, parts.length > 2 ? parts[2] : null);
        }
    }
}
