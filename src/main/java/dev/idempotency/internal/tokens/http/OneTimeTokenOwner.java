package dev.idempotency.internal.tokens.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.Locale;
import java.util.function.UnaryOperator;

/** Who a one-time token belongs to, by {@code idempotency.tokens.owner}. */
final class OneTimeTokenOwner {

    /** The owner of every token when callers are not told apart. */
    static final String SHARED = "";
    /** The owner of tokens issued to unauthenticated callers under the principal rule. */
    static final String ANONYMOUS = "anonymous";

    private final String header;
    private final boolean principal;

    private OneTimeTokenOwner(String header, boolean principal) {
        this.header = header;
        this.principal = principal;
    }

    /** Parses a rule that {@code TokenSettings} already checked. */
    static OneTimeTokenOwner of(String rule) {
        String lower = rule.toLowerCase(Locale.ROOT);
        if (lower.startsWith("header:")) {
            return new OneTimeTokenOwner(rule.substring("header:".length()).trim(), false);
        }
        return new OneTimeTokenOwner(null, lower.equals("principal"));
    }

    /** The header that names owners, or null. */
    String header() {
        return header;
    }

    /** The request's owner, or {@code null} when the owner header is missing. */
    String of(ContainerRequestContext request) {
        return of(request.getSecurityContext(), request::getHeaderString);
    }

    /** The owner from a security context and the request headers, or {@code null} (owner header missing). */
    String of(SecurityContext security, UnaryOperator<String> headers) {
        if (header != null) {
            String v = headers.apply(header);
            return v == null || v.isBlank() ? null : "header:" + v.strip();
        }
        if (principal) {
            Principal p = security == null ? null : security.getUserPrincipal();
            return p == null ? ANONYMOUS : "principal:" + p.getName();
        }
        return SHARED;
    }
}
