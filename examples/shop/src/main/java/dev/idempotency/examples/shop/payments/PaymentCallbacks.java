package dev.idempotency.examples.shop.payments;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.examples.shop.orders.OrderService;
import dev.idempotency.examples.shop.orders.OrderStatus;
import dev.idempotency.examples.shop.orders.PurchaseOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Books the payment provider's callbacks. Providers call again until they get an answer, and often
 * call twice at once: the handler runs once per trade number and every call gets the same answer.
 *
 * <p>The guard runs outside {@code @Transactional} (priority 100 before 200): the answer is stored
 * after the booking committed. {@code WAIT}: a concurrent retry waits for the first call's answer
 * instead of getting an error, since a provider treats errors as "retry later".
 */
@ApplicationScoped
public class PaymentCallbacks {

    private static final String PAID = "TRADE_SUCCESS";

    @Inject
    OrderService orders;

    @PersistenceContext(unitName = "shop")
    EntityManager em;

    /**
     * Books a confirmed payment once per trade number.
     *
     * @param tradeNo the provider's trade number: the idempotency key
     * @param notice the whole callback, fingerprinted: a different notice under the same trade number
     *     is refused as a key mismatch
     * @return the answer for the provider, the same on every retry
     * @throws PaymentRejected the notice does not fit the order; kept, so every retry gets it too
     */
    @Idempotent(name = "shop.payments.callback", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    @Transactional
    public PaymentAck confirm(@IdempotencyKey String tradeNo, PaymentNotice notice) throws PaymentRejected {
        if (!PAID.equals(notice.tradeStatus())) {
            throw new PaymentRejected("trade status " + notice.tradeStatus() + " is not " + PAID);
        }
        PurchaseOrder order = orders.lockForPayment(notice.orderId());
        if (order == null) {
            throw new PaymentRejected("no order " + notice.orderId());
        }
        if (order.total().compareTo(notice.amount()) != 0) {
            throw new PaymentRejected("amount " + notice.amount() + " does not match the order total " + order.total());
        }
        if (order.status() != OrderStatus.NEW) {
            // Paid by another trade number: the key differs, so only the state machine can see it.
            throw new PaymentRejected("order " + notice.orderId() + " was already paid by another trade");
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        orders.markPaid(order, tradeNo, now);
        em.persist(new Payment(tradeNo, notice.orderId(), notice.amount(), now));
        return new PaymentAck("success", notice.orderId(), tradeNo, notice.amount(), now);
    }

    /**
     * Booked payments of one order: more than one row would be a double booking.
     *
     * @param orderId the order
     * @return its payment rows
     */
    public List<PaymentView> ofOrder(long orderId) {
        return em
                .createQuery("select p from Payment p where p.orderId = :o order by p.id", Payment.class)
                .setParameter("o", orderId)
                .getResultList()
                .stream()
                .map(Payment::view)
                .toList();
    }

    /**
     * The settlement job's latest runs.
     *
     * @param all also the runs that paid nothing out
     * @return at most 100 runs, newest first
     */
    public List<PayoutBatchView> payouts(boolean all) {
        String where = all ? "" : " where b.payments > 0";
        return em
                .createQuery("select b from PayoutBatch b" + where + " order by b.id desc", PayoutBatch.class)
                .setMaxResults(100)
                .getResultList()
                .stream()
                .map(PayoutBatch::view)
                .toList();
    }
}
