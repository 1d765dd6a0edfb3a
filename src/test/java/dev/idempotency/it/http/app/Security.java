package dev.idempotency.it.http.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Set;

/** Real HTTP BASIC authentication (Jakarta Security) against two users held in this store. */
@BasicAuthenticationMechanismDefinition(realmName = "idempotency-it")
@ApplicationScoped
public class Security implements IdentityStore {

    static final Map<String, String> USERS = Map.of("alice", "alice-secret", "bob", "bob-secret");

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (credential instanceof UsernamePasswordCredential up
                && up.getPassword() != null
                && new String(up.getPassword().getValue()).equals(USERS.get(up.getCaller()))) {
            return new CredentialValidationResult(up.getCaller(), Set.of("user"));
        }
        return CredentialValidationResult.INVALID_RESULT;
    }
}
