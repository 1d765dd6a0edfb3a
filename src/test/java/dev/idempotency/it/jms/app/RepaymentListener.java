package dev.idempotency.it.jms.app;

import dev.idempotency.IdempotencyInProgressException;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * A message-driven bean on the server's embedded broker, written as an application would: it reads
 * the producer's id from the message and hands it to a guarded CDI bean, inside the container-managed
 * transaction that also acknowledges the message. An exception rolls the transaction back, and the
 * broker redelivers the message.
 *
 * <p>A delivery refused because another delivery of the same message is processing is not an error:
 * the bean marks its transaction for rollback instead of throwing, so the broker redelivers it later
 * and neither the broker nor the container logs an error for a duplicate that was handled.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = RepaymentListener.QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            // Several sessions, so that duplicates of one message are delivered concurrently.
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")
        })
public class RepaymentListener implements MessageListener {

    /** The queue, created by src/it/wildfly/setup.cli. */
    public static final String QUEUE = "java:/jms/queue/idempotencyIt";

    @Inject
    Repayments repayments;

    @Inject
    Ledger ledger;

    @Resource
    MessageDrivenContext context;

    @Override
    public void onMessage(Message message) {
        String id;
        String mode;
        try {
            id = message.getStringProperty(Repayments.ID);
            mode = message.getStringProperty(Repayments.MODE);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
        ledger.delivered(id);
        try {
            repayments.apply(id, mode);
        } catch (IdempotencyInProgressException processingElsewhere) {
            context.setRollbackOnly();
        }
    }
}
