package dev.idempotency.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A CDI bean whose guard is declared on its interface ({@link DeclaredNotifier}). */
@ApplicationScoped
public class NotifierBean implements DeclaredNotifier {

    @Inject
    ExecutionCounter counter;

    @Override
    public int notifyProvider(String id) {
        return counter.ran("notify:" + id);
    }
}
