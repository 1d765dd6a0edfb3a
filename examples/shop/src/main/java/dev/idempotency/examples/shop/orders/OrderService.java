package dev.idempotency.examples.shop.orders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Orders in the database. Knows nothing about idempotency: the callers are guarded. */
@ApplicationScoped
public class OrderService {

    @PersistenceContext(unitName = "shop")
    EntityManager em;

    /**
     * Places an order: one new row.
     *
     * @param request a validated request
     * @return the new order
     */
    @Transactional
    public OrderView place(OrderRequest request) {
        PurchaseOrder order = new PurchaseOrder(
                request.customer().strip(),
                request.product(),
                request.quantity(),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        em.persist(order);
        em.flush();
        return order.view();
    }

    /**
     * Orders, newest first.
     *
     * @param customer only this customer's orders, or every order when null
     * @return at most 200 orders
     */
    public List<OrderView> list(String customer) {
        var query = customer == null
                ? em.createQuery("select o from PurchaseOrder o order by o.id desc", PurchaseOrder.class)
                : em.createQuery(
                                "select o from PurchaseOrder o where o.customer = :c order by o.id desc",
                                PurchaseOrder.class)
                        .setParameter("c", customer);
        return query.setMaxResults(200).getResultList().stream()
                .map(PurchaseOrder::view)
                .toList();
    }

    /**
     * One order.
     *
     * @param id the order number
     * @return the order, or null when there is none
     */
    public OrderView find(long id) {
        PurchaseOrder order = em.find(PurchaseOrder.class, id);
        return order == null ? null : order.view();
    }

    /**
     * The order row, locked until the caller's transaction ends, so that two different payments of
     * the same order are decided one after the other.
     *
     * @param id the order number
     * @return the managed order, or null
     */
    public PurchaseOrder lockForPayment(long id) {
        return em.find(PurchaseOrder.class, id, LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * Marks a locked order paid.
     *
     * @param order from {@link #lockForPayment}
     * @param tradeNo the provider's trade number
     * @param now the payment time
     */
    public void markPaid(PurchaseOrder order, String tradeNo, Instant now) {
        order.markPaid(tradeNo, now);
    }
}
