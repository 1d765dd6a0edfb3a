package dev.idempotency.internal.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The transactions a guarded call's own work ran in, as seen from just around the method body, and
 * how they ended. One instance per owned call: the entry point hands it down the call (a value, not a
 * thread-local), the code next to the body reports what it saw with {@link #ranWithoutTransaction()}
 * or {@link #ranIn(Object)} and {@link #ended(Object, boolean)}, and the guard settles the call with
 * it once the method returned or threw.
 *
 * <p>The rule, written once here: the work is <em>durable</em> if any part of it ran outside a
 * transaction or in a transaction that committed; it is <em>undone</em> if every transaction it ran
 * in rolled back. {@link #afterWork} waits until every transaction the work ran in has ended, so the
 * decision follows the transaction of the method's own work (its {@code REQUIRES_NEW} transaction,
 * the caller's transaction it joined, or none), never the transaction that happens to surround the
 * guard.
 *
 * <p>It also records how the body itself ended ({@link #bodyStarted()}, {@link #bodyEnded}), which
 * can differ from what the guard sees: a Fault Tolerance {@code @Timeout} between the guard and the body
 * throws its timeout while (or after) the body runs on. {@link #afterBody} then settles the call by the
 * body's own outcome once it ends.
 *
 * <p>Thread-safe: a transaction may end on another thread (a transaction timeout rolls it back on
 * the transaction manager's reaper thread), and a body may end after the guard saw a timeout. The
 * settlement callbacks run outside the lock, exactly once.
 */
public final class WorkTransactions implements Settlement {

    private final List<Object> transactions = new ArrayList<>(1);
    private boolean reached;
    private boolean outsideTransaction;
    private boolean committed;
    private int pending;
    private Waiting waiting;
    private int runningBodies;
    private boolean bodyStarted;
    private boolean bodyReturned;
    private Object bodyValue;
    private Throwable bodyFailure;
    private BiConsumer<Object, Throwable> afterBody;

    /** Settlement callbacks waiting for the last transaction to end. */
    private record Waiting(boolean transactionsOnly, Runnable onDurable, Runnable onUndone) {}

    /** The method body started without a transaction: that part of the work is durable when it returns. */
    public synchronized void ranWithoutTransaction() {
        reached = true;
        outsideTransaction = true;
    }

    /**
     * The method body started in the transaction identified by {@code transactionKey}.
     *
     * @param transactionKey any object that identifies the transaction (equal for the same one)
     * @return true if this transaction is new to this call: the caller must then report its end with
     *     {@link #ended} exactly once; false if it was reported before (the body ran again in it)
     */
    public synchronized boolean ranIn(Object transactionKey) {
        reached = true;
        if (transactions.contains(transactionKey)) {
            return false;
        }
        transactions.add(transactionKey);
        pending++;
        return true;
    }

    /**
     * A transaction the work ran in has ended.
     *
     * @param transactionKey the key given to {@link #ranIn}
     * @param hasCommitted whether it committed (false: it rolled back)
     */
    public void ended(Object transactionKey, boolean hasCommitted) {
        Runnable settle;
        synchronized (this) {
            if (!transactions.contains(transactionKey) || pending == 0) {
                return;
            }
            pending--;
            committed |= hasCommitted;
            settle = waiting != null && pending == 0 ? decide(waiting) : null;
            if (settle != null) {
                waiting = null;
            }
        }
        if (settle != null) {
            settle.run();
        }
    }

    /** The method body starts (it may start more than once: Fault Tolerance's {@code @Retry}). */
    public synchronized void bodyStarted() {
        runningBodies++;
        bodyStarted = true;
    }

    /**
     * The method body ended: it returned {@code value} (for a stage, the stage's value), or threw {@code
     * failure}. When the last running body ends, a callback given to {@link #afterBody} runs, on this
     * thread.
     */
    public void bodyEnded(Object value, Throwable failure) {
        BiConsumer<Object, Throwable> then;
        synchronized (this) {
            if (runningBodies == 0) {
                return;
            }
            runningBodies--;
            if (failure == null) {
                bodyReturned = true;
                bodyValue = value;
            } else if (!bodyReturned) {
                bodyFailure = failure;
            }
            if (runningBodies > 0) {
                return;
            }
            then = afterBody;
            afterBody = null;
        }
        if (then != null) {
            then.accept(bodyValue(), bodyFailure());
        }
    }

    /**
     * Hands {@code then} the body's own outcome once every body that started has ended: at once if they
     * have, else on the thread of the last to end. A value wins over a failure (one attempt of several
     * returned: its effect is there). Runs {@code then} at most once.
     *
     * @return false if no body was seen starting: its outcome cannot be known, and {@code then} never runs
     */
    public boolean afterBody(BiConsumer<Object, Throwable> then) {
        synchronized (this) {
            if (!bodyStarted) {
                return false;
            }
            if (runningBodies > 0) {
                afterBody = then;
                return true;
            }
        }
        then.accept(bodyValue(), bodyFailure());
        return true;
    }

    private synchronized Object bodyValue() {
        return bodyReturned ? bodyValue : null;
    }

    private synchronized Throwable bodyFailure() {
        return bodyReturned ? null : bodyFailure;
    }

    /** Whether the method body was reached at all (false also when nothing watched it). */
    public synchronized boolean reached() {
        return reached;
    }

    /** Whether any part of the work ran in a transaction. */
    public synchronized boolean ranInTransaction() {
        return !transactions.isEmpty();
    }

    /**
     * Runs {@code onCommit} once the work is durable, or {@code onRollback} once it is undone: at once
     * if every transaction it ran in has ended, else when the last one ends.
     */
    @Override
    public void afterWork(Runnable onCommit, Runnable onRollback) {
        settle(new Waiting(false, onCommit, onRollback));
    }

    /**
     * Like {@link #afterWork}, but only the transactions count: {@code onCommit} runs if one of them
     * committed, {@code onRollback} if all rolled back. For an exception that would release the key
     * outside a transaction: it is kept only if the work it interrupted committed.
     */
    public Settlement transactionsOnly() {
        return (onCommit, onRollback) -> settle(new Waiting(true, onCommit, onRollback));
    }

    private void settle(Waiting w) {
        Runnable now;
        synchronized (this) {
            if (waiting != null) {
                throw new IllegalStateException("a call's work is settled once");
            }
            if (pending > 0) {
                waiting = w;
                return;
            }
            now = decide(w);
        }
        now.run();
    }

    private Runnable decide(Waiting w) {
        boolean durable = committed || (!w.transactionsOnly() && outsideTransaction);
        return durable ? w.onDurable() : w.onUndone();
    }
}
