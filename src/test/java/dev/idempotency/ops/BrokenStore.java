package dev.idempotency.ops;

import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.DelegatingStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import java.util.Optional;

/** A memory store whose reads fail while {@link #down} is set, as a store whose database is gone. */
@ApplicationScoped
@Named("switchable")
public class BrokenStore extends DelegatingStore {

    private volatile boolean down;

    /** Makes reads fail (true) or work (false); a method, since fields of a client proxy are not the bean's. */
    public void down(boolean value) {
        down = value;
    }

    public BrokenStore() {
        super(new MemoryIdempotencyStore());
    }

    @Override
    public Optional<dev.idempotency.spi.IdempotencyRecord> read(String key) {
        if (down) {
            throw new IllegalStateException("connection refused (test)");
        }
        return super.read(key);
    }
}
