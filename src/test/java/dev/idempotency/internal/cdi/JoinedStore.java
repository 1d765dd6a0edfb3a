package dev.idempotency.internal.cdi;

import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.JoiningStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/**
 * A store that claims to write its records in the caller's transaction, as the JPA store's joined mode
 * does (the records stay in memory): for the guard's joined-mode rules, with operations configured
 * {@code transaction = JOINED}.
 */
@Named("joined")
@ApplicationScoped
public class JoinedStore extends JoiningStore {

    public JoinedStore() {
        super(new MemoryIdempotencyStore());
    }
}
