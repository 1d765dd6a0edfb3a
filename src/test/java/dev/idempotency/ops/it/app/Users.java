package dev.idempotency.ops.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Set;

/** HTTP BASIC (Jakarta Security): an operator with the inspection role, and a user without it. */
@BasicAuthenticationMechanismDefinition(realmName = "ops-it")
@ApplicationScoped
public class Users implements IdentityStore {

    static final Map<String, String> PASSWORDS = Map.of("operator", "operator-secret", "user", "user-secret");
    static final Map<String, Set<String>> ROLES =
            Map.of("operator", Set.of("idempotency-operator"), "user", Set.of("user"));

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (credential instanceof UsernamePasswordCredential up
                && up.getPassword() != null
                && new String(up.getPassword().getValue()).equals(PASSWORDS.get(up.getCaller()))) {
            return new CredentialValidationResult(up.getCaller(), ROLES.get(up.getCaller()));
        }
        return CredentialValidationResult.INVALID_RESULT;
    }
}
