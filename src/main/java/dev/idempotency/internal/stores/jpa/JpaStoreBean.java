package dev.idempotency.internal.stores.jpa;

import dev.idempotency.internal.stores.OptionalStores;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The JPA store as the CDI bean that {@code idempotency.store=jpa} selects. It builds nothing until it
 * is selected: in an application on another store it stays an empty shell, so the library's jar never
 * needs a data source or a table. When selected it starts with the application, on the JTA data source
 * named by {@code idempotency.jpa.datasource} ({@code java:comp/DefaultDataSource} by default), and
 * checks there everything a call needs (data source, table, dialect, joined mode), so that a
 * configuration with which every call would fail fails the deployment instead.
 */
@ApplicationScoped
@Named(JpaStoreBean.NAME)
public class JpaStoreBean implements IdempotencyStore {

    /** The store's name, the value of {@code idempotency.store} that selects it. */
    public static final String NAME = "jpa";

    private static final System.Logger LOG = System.getLogger(JpaStoreBean.class.getName());

    private final JtaTransactionRunner runner;
    private volatile JpaIdempotencyStore store;

    /** For the container's proxy. */
    protected JpaStoreBean() {
        this.runner = null;
    }

    /** @param runner starts the store's own transactions */
    @Inject
    public JpaStoreBean(JtaTransactionRunner runner) {
        this.runner = runner;
    }

    /** Builds the store at startup when it is the selected one, so that misconfiguration fails the deployment. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object event) {
        if (!OptionalStores.selected(NAME)) {
            return;
        }
        try {
            store();
        } catch (JpaStores.DataSourceNotFound e) {
            if (isServletContext(event)) {
                throw e;
            }
            // Too early to tell: Payara starts the application scope of a WAR without EJBs before it binds
            // the data sources of its web.xml. When the web module starts, jaxrs.DeploymentCheck starts the
            // store again, and a data source still missing then fails the deployment.
            LOG.log(Level.DEBUG, "data source not bound yet, checked again when the web module starts: {0}", e);
        }
    }

    private static boolean isServletContext(Object event) {
        try {
            return event instanceof jakarta.servlet.ServletContext;
        } catch (LinkageError noServlets) {
            return false;
        }
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return store().claim(key, owner, fingerprint, lease);
    }

    @Override
    public ClaimResult claim(GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        return store().claim(operation, key, owner, fingerprint, lease);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        return store().read(key);
    }

    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return store().complete(key, owner, outcome, ttl);
    }

    @Override
    public boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
        return store().complete(operation, key, owner, outcome, ttl);
    }

    @Override
    public boolean release(String key, String owner) {
        return store().release(key, owner);
    }

    @Override
    public boolean release(GuardedOperation operation, String key, String owner) {
        return store().release(operation, key, owner);
    }

    @Override
    public boolean renew(String key, String owner, Duration lease) {
        return store().renew(key, owner, lease);
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        return store().deleteCompleted(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return store().purgeExpired(max);
    }

    @Override
    public boolean notifySettlements(java.util.function.Consumer<String> listener) {
        return store().notifySettlements(listener);
    }

    /** Stops the store's listening for settlement notices, when the application stops. */
    @PreDestroy
    void stop() {
        JpaIdempotencyStore s = store;
        if (s != null) {
            s.close();
        }
    }

    /** Starts the store if it has not started: a configuration it cannot work with throws here. */
    @Override
    public boolean canJoinCallerTransaction() {
        return store().canJoinCallerTransaction();
    }

    private JpaIdempotencyStore store() {
        JpaIdempotencyStore s = store;
        if (s == null) {
            synchronized (this) {
                s = store;
                if (s == null) {
                    s = build();
                    store = s;
                }
            }
        }
        return s;
    }

    private JpaIdempotencyStore build() {
        Config config = ConfigProvider.getConfig();
        return JpaStores.inContainer(key -> config.getOptionalValue(key, String.class), runner);
    }
}
