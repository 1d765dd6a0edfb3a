package dev.idempotency.internal.core;

import java.util.List;

/**
 * Decides whether a thrown exception is kept (stored, rethrown on replay) or releases the key, in the
 * precedence of {@code jakarta.transaction.Transactional}'s dontRollbackOn / rollbackOn: keepOn, then
 * releaseOn, then the default (unchecked and errors release, checked are kept). Subclasses match.
 *
 * @param keepOn types that are kept
 * @param releaseOn types that release the key
 */
public record ExceptionPolicy(List<Class<? extends Throwable>> keepOn, List<Class<? extends Throwable>> releaseOn) {

    /** The default: unchecked exceptions and errors release, checked exceptions are kept. */
    public static final ExceptionPolicy DEFAULT = new ExceptionPolicy(List.of(), List.of());

    /** Copies the lists. */
    public ExceptionPolicy {
        keepOn = List.copyOf(keepOn);
        releaseOn = List.copyOf(releaseOn);
    }

    /** Whether the exception is stored and replayed (true) or releases the key (false). */
    public boolean keeps(Throwable t) {
        for (Class<? extends Throwable> c : keepOn) {
            if (c.isInstance(t)) {
                return true;
            }
        }
        for (Class<? extends Throwable> c : releaseOn) {
            if (c.isInstance(t)) {
                return false;
            }
        }
        return !(t instanceof RuntimeException || t instanceof Error);
    }

    /** Whether a {@code keepOn} or {@code releaseOn} type matches: the user decided, not the default rule. */
    public boolean names(Throwable t) {
        for (Class<? extends Throwable> c : keepOn) {
            if (c.isInstance(t)) {
                return true;
            }
        }
        for (Class<? extends Throwable> c : releaseOn) {
            if (c.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
