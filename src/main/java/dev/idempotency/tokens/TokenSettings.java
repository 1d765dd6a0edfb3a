package dev.idempotency.tokens;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@code idempotency.tokens.*} keys, their defaults and parsed values; read once at deployment,
 * so an invalid value fails the deployment with a message naming the key.
 */
public final class TokenSettings {

    /** Lifetime of an issued token. */
    public static final String TTL = "idempotency.tokens.ttl";
    /** Request header that carries a one-time token to a {@code @RequiresOneTimeToken} resource. */
    public static final String HEADER = "idempotency.tokens.header";
    /** Whether {@code POST /idempotency/tokens} hands out tokens. */
    public static final String ENDPOINT_ENABLED = "idempotency.tokens.endpoint.enabled";
    /** Who a token issued over HTTP belongs to: {@code principal}, {@code none} or {@code header:<Name>}. */
    public static final String OWNER = "idempotency.tokens.owner";

    /** Tokens the endpoint issues to one owner within one token lifetime, on one node. */
    public static final String MAX_PER_OWNER = "idempotency.tokens.endpoint.max-per-owner";
    /** Tokens the endpoint issues within one token lifetime on one node, to all owners together. */
    public static final String MAX_TOTAL = "idempotency.tokens.endpoint.max-total";

    /** Default of {@link #MAX_PER_OWNER}: more than one user fills in forms at once. */
    public static final int DEFAULT_MAX_PER_OWNER = 20;
    /** Default of {@link #MAX_TOTAL}. */
    public static final int DEFAULT_MAX_TOTAL = 10_000;

    /** Default of {@link #TTL}: ten minutes, long enough to fill in a form. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    /** Default of {@link #HEADER}. */
    public static final String DEFAULT_HEADER = "Idempotency-Token";
    /** Default of {@link #ENDPOINT_ENABLED}: off, so no application exposes an endpoint it did not ask for. */
    public static final boolean DEFAULT_ENDPOINT_ENABLED = false;
    /** Default of {@link #OWNER}. */
    public static final String DEFAULT_OWNER = "principal";

    private final Duration ttl;
    private final String header;
    private final boolean endpointEnabled;
    private final String owner;
    private final int maxPerOwner;
    private final int maxTotal;

    private TokenSettings(ConfigLookup s) {
        ttl = s.duration(TTL, DEFAULT_TTL);
        header = s.text(HEADER).orElse(DEFAULT_HEADER);
        if (!header.chars().allMatch(TokenSettings::isTchar)) {
            throw new IdempotencyConfigurationException("Config key '" + HEADER + "' is '" + header
                    + "', which is not a valid HTTP header name; use letters, digits and '-', such as "
                    + DEFAULT_HEADER + ".");
        }
        endpointEnabled = s.bool(ENDPOINT_ENABLED, DEFAULT_ENDPOINT_ENABLED);
        owner = s.text(OWNER).orElse(DEFAULT_OWNER);
        String lower = owner.toLowerCase(Locale.ROOT);
        boolean headerOwner = lower.startsWith("header:")
                && owner.length() > "header:".length()
                && owner.substring("header:".length()).trim().chars().allMatch(TokenSettings::isTchar);
        if (!lower.equals("principal") && !lower.equals("none") && !headerOwner) {
            throw new IdempotencyConfigurationException("Config key '" + OWNER + "' is '" + owner
                    + "'; use principal (the default), none, or header:<Header-Name> such as header:X-Session-Id.");
        }
        maxPerOwner = s.positiveInt(MAX_PER_OWNER, DEFAULT_MAX_PER_OWNER);
        maxTotal = s.positiveInt(MAX_TOTAL, DEFAULT_MAX_TOTAL);
    }

    /** The endpoint's bounds on issued tokens ({@link #MAX_PER_OWNER}, {@link #MAX_TOTAL}), per token lifetime. */
    public IssueBudget issueBudget() {
        return new IssueBudget(maxPerOwner, maxTotal, ttl, System::nanoTime);
    }

    /**
     * Reads and checks every {@code idempotency.tokens.*} key.
     *
     * @throws IdempotencyConfigurationException naming the first invalid key and its fix
     */
    public static TokenSettings from(ConfigLookup settings) {
        return new TokenSettings(settings);
    }

    /** The lifetime of an issued token. */
    public Duration ttl() {
        return ttl;
    }

    /** The header name. */
    public String header() {
        return header;
    }

    /** Whether the token endpoint is enabled. */
    public boolean endpointEnabled() {
        return endpointEnabled;
    }

    /** The owner rule: {@code principal}, {@code none} or {@code header:<Name>}. */
    public String owner() {
        return owner;
    }

    private static boolean isTchar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
