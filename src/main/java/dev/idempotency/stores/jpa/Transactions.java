package dev.idempotency.stores.jpa;

import jakarta.persistence.EntityManager;
import java.util.function.Function;

/** How the store gets an entity manager and a transaction: JTA in a container, resource-local in Java SE. */
interface Transactions {

    /**
     * Runs {@code work} in a new transaction that commits when it returns and rolls back when it throws
     * (the exception is rethrown as it is). A caller's transaction is suspended meanwhile.
     */
    <T> T inNew(Function<EntityManager, T> work);

    /**
     * Runs {@code work} in the caller's active transaction; the entity manager is flushed before
     * returning, and the transaction is left to its owner.
     *
     * @param operation the operation, for the error when no transaction is active
     */
    <T> T inCaller(Function<EntityManager, T> work, String operation);

    /** Runs a read without starting a transaction. */
    <T> T read(Function<EntityManager, T> work);
}
