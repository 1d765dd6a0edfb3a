package dev.idempotency.internal.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records an operation's events as text, in order: {@code executed} (or {@code executed:takeover}),
 * {@code replayed}, {@code in_progress}, {@code mismatch}, {@code key_missing}, {@code
 * store_unavailable}, {@code released:<cause>}, {@code unstored:store_failed} or {@code
 * unstored:lease_lost}. Thread-safe.
 */
public class RecordedEvents implements OperationEvents {

    /** What was reported, in order. */
    public final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void executed(boolean tookOver) {
        events.add(tookOver ? "executed:takeover" : "executed");
    }

    @Override
    public void replayed() {
        events.add("replayed");
    }

    @Override
    public void refusedInProgress() {
        events.add("in_progress");
    }

    @Override
    public void mismatched() {
        events.add("mismatch");
    }

    @Override
    public void keyMissing() {
        events.add("key_missing");
    }

    @Override
    public void storeUnavailable() {
        events.add("store_unavailable");
    }

    @Override
    public void released(ReleaseCause cause) {
        events.add("released:" + cause.name().toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public void outcomeNotStored(boolean storeFailed) {
        events.add(storeFailed ? "unstored:store_failed" : "unstored:lease_lost");
    }
}
