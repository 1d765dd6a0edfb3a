package dev.idempotency.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.Settings;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.persistence.EntityManagerFactory;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The JPA store as the CDI bean that {@code idempotency.store=jpa} selects. It builds nothing until it
 * is selected: in an application on another store it stays an empty shell, so the library's jar never
 * needs a data source, a persistence unit or a table. When selected it starts with the application
 * (so that a wrong data source fails at deployment), on the JTA data source named by {@code
 * idempotency.jpa.datasource} ({@code java:comp/DefaultDataSource} by default).
 */
@ApplicationScoped
@Named(JpaStoreBean.NAME)
public class JpaStoreBean implements IdempotencyStore {

    /** The store's name, the value of {@code idempotency.store} that selects it. */
    public static final String NAME = "jpa";

    private static final System.Logger LOG = System.getLogger(JpaStoreBean.class.getName());

    private final JtaTransactionRunner runner;
    private volatile JpaIdempotencyStore store;
    private EntityManagerFactory emf;

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
    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (NAME.equals(new GlobalSettings(settings()).store())) {
            store();
        }
    }

    @PreDestroy
    void stop() {
        if (emf != null && emf.isOpen()) {
            emf.close();
        }
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return store().claim(key, owner, fingerprint, lease);
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
    public boolean release(String key, String owner) {
        return store().release(key, owner);
    }

    @Override
    public int purgeExpired(int max) {
        return store().purgeExpired(max);
    }

    @Override
    public boolean joinsCallerTransaction(String operation) {
        return store().joinsCallerTransaction(operation);
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
        JpaStoreSettings settings = new JpaStoreSettings(key -> config.getOptionalValue(key, String.class));
        String name = settings.datasource();
        DataSource dataSource;
        try {
            dataSource = (DataSource) new InitialContext().lookup(name);
        } catch (NamingException | ClassCastException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store cannot find the data source '" + name + "' (config key '"
                            + JpaStoreSettings.DATASOURCE + "'): " + e
                            + ". Name a JTA data source the application can look up, e.g. java:app/jdbc/orders.",
                    e);
        }
        Dialect dialect = PersistenceUnitBootstrap.dialect(dataSource, settings);
        if (settings.createTable()) {
            PersistenceUnitBootstrap.createTable(dataSource, dialect);
        }
        Map<String, String> properties = new HashMap<>();
        for (String key : config.getPropertyNames()) {
            if (key.startsWith(JpaStoreSettings.PROPERTY_PREFIX)) {
                config.getOptionalValue(key, String.class)
                        .ifPresent(v -> properties.put(key.substring(JpaStoreSettings.PROPERTY_PREFIX.length()), v));
            }
        }
        emf = PersistenceUnitBootstrap.create(
                dataSource, true, settings.provider().orElse(null), properties);
        LOG.log(
                Level.INFO,
                "JPA idempotency store on {0} ({1}), default transaction mode {2}",
                name,
                dialect.configName(),
                settings.mode(null));
        return new JpaIdempotencyStore(
                emf, new JtaTransactions(emf, runner), dialect, settings, Clock.systemUTC(), dataSource);
    }

    private static Settings settings() {
        Config config = ConfigProvider.getConfig();
        return key -> config.getOptionalValue(key, String.class);
    }
}
