package dev.idempotency.internal.cdi;

import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.DelegatingStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/** A store that writes its records in the caller's transaction, as the JPA store's joined mode does. */
@Named("joined")
@ApplicationScoped
public class JoinedStore extends DelegatingStore {

    public JoinedStore() {
        super(new MemoryIdempotencyStore());
    }

    @Override
    public boolean joinsCallerTransaction(String operation) {
        return true;
    }
}
