package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Guarded methods covering every rule of @Idempotent; counts real executions per method and key. */
@ApplicationScoped
public class Orders {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    int ran(String method, Object key) {
        return runs.computeIfAbsent(method + ":" + key, k -> new AtomicInteger())
                .incrementAndGet();
    }

    int runs(String method, Object key) {
        AtomicInteger n = runs.get(method + ":" + key);
        return n == null ? 0 : n.get();
    }

    @Idempotent(name = "orders.place")
    public List<OrderLine> place(@IdempotencyKey String orderId, List<OrderLine> lines) {
        int run = ran("place", orderId);
        List<OrderLine> priced = new ArrayList<>(lines);
        priced.add(new OrderLine("shipping-run-" + run, 1, "4.99"));
        return priced;
    }

    @Idempotent(name = "orders.notify")
    public void notifyCustomer(@IdempotencyKey String orderId) {
        ran("notify", orderId);
    }

    @Idempotent(name = "orders.pay")
    public String pay(@IdempotencyKey String id, String mode) throws PaymentDeclined {
        int run = ran("pay", id);
        if (mode.equals("decline")) {
            throw new PaymentDeclined("insufficient funds (run " + run + ")");
        }
        if (mode.equals("crash") && run == 1) {
            throw new IllegalStateException("gateway timeout");
        }
        return "paid-run-" + run;
    }

    @Idempotent(name = "orders.custom", keepOn = IllegalArgumentException.class, releaseOn = TransientFailure.class)
    public String custom(@IdempotencyKey String id, String mode) throws TransientFailure {
        int run = ran("custom", id);
        if (mode.equals("invalid")) {
            throw new IllegalArgumentException("amount must be positive (run " + run + ")");
        }
        if (mode.equals("transient") && run == 1) {
            throw new TransientFailure("try again");
        }
        return "custom-run-" + run;
    }

    @Idempotent(name = "orders.required", required = true)
    public String required(@IdempotencyKey String id) {
        return "required-run-" + ran("required", id);
    }

    @Idempotent(name = "orders.optional")
    public String optional(@IdempotencyKey String id) {
        return "optional-run-" + ran("optional", id);
    }

    @Idempotent(name = "orders.slowReject", lease = "PT20S")
    public String slowReject(@IdempotencyKey String id) {
        int run = ran("slowReject", id);
        sleep(150);
        return "reject-run-" + run;
    }

    @Idempotent(name = "orders.slowWait", lease = "PT20S", onInProgress = InProgressPolicy.WAIT)
    public String slowWait(@IdempotencyKey String id) {
        int run = ran("slowWait", id);
        sleep(150);
        return "wait-run-" + run;
    }

    @Idempotent(name = "repayments.settle")
    public String settle(Repayment message) {
        return "settled-run-" + ran("settle", message.serialNo());
    }

    @Idempotent(name = "orders.byArgs")
    public int byArgs(String account, int cents) {
        return ran("byArgs", account + "/" + cents);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
