package dev.idempotency.internal.cdi;

import dev.idempotency.ids.IdSettings;
import dev.idempotency.ids.SnowflakeIds;
import dev.idempotency.lock.ClusterLocks;
import dev.idempotency.messaging.FailedMessage;
import dev.idempotency.messaging.MessageDeduplicator;
import dev.idempotency.messaging.MessageSettings;
import dev.idempotency.tokens.IssueBudget;
import dev.idempotency.tokens.OneTimeTokens;
import dev.idempotency.tokens.TokenSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * The toolkit's services, built once per application on the configured store, and offered for
 * injection: {@link OneTimeTokens}, {@link MessageDeduplicator}, {@link ClusterLocks}, {@link
 * SnowflakeIds}. None of them has a backend of its own: they all use {@code idempotency.store}.
 */
@ApplicationScoped
public class ToolkitProducer {

    @Inject
    IdempotencyRuntime runtime;

    @Inject
    Event<FailedMessage> failedMessages;

    private TokenSettings tokenSettings;
    private OneTimeTokens tokens;
    private IssueBudget issueBudget;
    private MessageDeduplicator messages;
    private ClusterLocks locks;
    private SnowflakeIds ids;

    @PostConstruct
    void init() {
        tokenSettings = TokenSettings.from(runtime.settings());
        tokens = new OneTimeTokens(runtime.engine().store(), Clock.systemUTC());
        issueBudget = tokenSettings.issueBudget();
        messages = new MessageDeduplicator(
                runtime.engine().store(),
                MessageSettings.from(runtime.settings()),
                failedMessages::fire,
                runtime.engine().keepAlive(),
                runtime.engine().application(),
                runtime.engine()::events);
        locks = new ClusterLocks(runtime.engine().store(), System::nanoTime, runtime.engine()::events);
        ids = IdSettings.from(runtime.settings()).generator();
    }

    /** The {@code idempotency.tokens.*} settings. */
    @Produces
    public TokenSettings tokenSettings() {
        return tokenSettings;
    }

    /** One-time tokens on the configured store. */
    @Produces
    public OneTimeTokens tokens() {
        return tokens;
    }

    /** The token endpoint's bounds on issued tokens, shared by all its requests on this node. */
    @Produces
    public IssueBudget issueBudget() {
        return issueBudget;
    }

    /** Message deduplication on the configured store. */
    @Produces
    public MessageDeduplicator messages() {
        return messages;
    }

    /** Cluster locks on the configured store. */
    @Produces
    public ClusterLocks locks() {
        return locks;
    }

    /** This node's Snowflake id generator ({@code idempotency.ids.*}). */
    @Produces
    public SnowflakeIds ids() {
        return ids;
    }
}
