package demo;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** Makes the next calls of a resource fail after their effect, so that a test sees what rolls back. */
@ApplicationScoped
public class FailSwitch {

    private final AtomicInteger failures = new AtomicInteger();

    /** The next {@code count} calls that ask fail. */
    public void failNext(int count) {
        failures.set(count);
    }

    /** Whether this call is to fail. */
    public boolean take() {
        return failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
