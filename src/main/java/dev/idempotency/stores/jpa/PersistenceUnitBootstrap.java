package dev.idempotency.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.SharedCacheMode;
import jakarta.persistence.ValidationMode;
import jakarta.persistence.spi.ClassTransformer;
import jakarta.persistence.spi.PersistenceProvider;
import jakarta.persistence.spi.PersistenceProviderResolverHolder;
import jakarta.persistence.spi.PersistenceUnitInfo;
import jakarta.persistence.spi.PersistenceUnitTransactionType;
import java.net.URL;
import java.security.CodeSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Builds the JPA store's persistence unit in code, through the provider's container bootstrap ({@link
 * PersistenceProvider#createContainerEntityManagerFactory}), on a data source the store was given.
 *
 * <p>Why not a {@code META-INF/persistence.xml} in the library jar: the container would deploy it in
 * every application that has the jar, including those on the memory or Infinispan store, and it would
 * need a data source to exist. Built here, the unit exists only when {@code idempotency.store=jpa},
 * manages exactly one entity, and works with whichever provider the server has (EclipseLink on
 * Payara and GlassFish, Hibernate on WildFly).
 */
final class PersistenceUnitBootstrap {

    static final String UNIT_NAME = "idempotency-ee";

    private PersistenceUnitBootstrap() {}

    /**
     * Creates the entity manager factory.
     *
     * @param dataSource where the table lives
     * @param jta whether the data source is a container's JTA data source
     * @param providerClass the provider class name, or {@code null} for the first one found
     * @param properties passed to the provider as they are
     */
    static EntityManagerFactory create(
            DataSource dataSource, boolean jta, String providerClass, Map<String, String> properties) {
        PersistenceProvider provider = provider(providerClass);
        Properties props = new Properties();
        // The store runs its own DDL (create-table) and never needs the provider's.
        props.put("jakarta.persistence.schema-generation.database.action", "none");
        // No weaving: the store's entity has no lazy fields, and a library cannot count on a Java agent.
        props.put("eclipselink.weaving", "false");
        // EclipseLink logs every failed statement as a WARNING with a stack trace; on the portable path a
        // duplicate claim is a failed INSERT by design, and the store reports real failures itself.
        props.put("eclipselink.logging.level", "SEVERE");
        props.putAll(properties);
        return provider.createContainerEntityManagerFactory(new UnitInfo(provider, dataSource, jta, props), props);
    }

    private static PersistenceProvider provider(String providerClass) {
        List<PersistenceProvider> providers = PersistenceProviderResolverHolder.getPersistenceProviderResolver()
                .getPersistenceProviders();
        if (providerClass == null) {
            if (providers.isEmpty()) {
                throw new IdempotencyConfigurationException(
                        "idempotency.store=jpa, but no Jakarta Persistence provider is available; deploy on a"
                                + " server with JPA (EclipseLink, Hibernate) or add one to the application.");
            }
            return providers.get(0);
        }
        for (PersistenceProvider p : providers) {
            if (p.getClass().getName().equals(providerClass)) {
                return p;
            }
        }
        throw new IdempotencyConfigurationException("Config key '" + JpaStoreSettings.PROVIDER + "' is '"
                + providerClass + "', but the available providers are "
                + providers.stream().map(p -> p.getClass().getName()).toList() + "; use one of those.");
    }

    /** The dialect of the data source's database, unless configured. */
    static Dialect dialect(DataSource dataSource, JpaStoreSettings settings) {
        if (settings.dialect().isPresent()) {
            return Dialect.ofConfig(JpaStoreSettings.DIALECT, settings.dialect().get());
        }
        try (Connection c = dataSource.getConnection()) {
            return Dialect.ofProduct(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store cannot connect to its data source to detect the database: " + e
                            + ". Check '" + JpaStoreSettings.DATASOURCE + "', or set '" + JpaStoreSettings.DIALECT
                            + "'.",
                    e);
        }
    }

    /** Runs the shipped DDL; every statement is {@code IF NOT EXISTS}, so this is safe on every start. */
    static void createTable(DataSource dataSource, Dialect dialect) {
        if (dialect == Dialect.GENERIC) {
            return;
        }
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            for (String ddl : dialect.ddl()) {
                s.execute(ddl);
            }
        } catch (SQLException e) {
            throw new IdempotencyConfigurationException(
                    "The JPA idempotency store could not create its table " + IdempotencyRecordEntity.TABLE + ": "
                            + e + ". Create it with META-INF/idempotency/jpa/" + dialect.configName()
                            + ".sql from the idempotency-ee jar and set '" + JpaStoreSettings.CREATE_TABLE
                            + "=false'.",
                    e);
        }
    }

    /** The unit: one managed class, no shared cache (every read must hit the database), no validation. */
    private record UnitInfo(PersistenceProvider provider, DataSource dataSource, boolean jta, Properties props)
            implements PersistenceUnitInfo {

        @Override
        public String getPersistenceUnitName() {
            return UNIT_NAME;
        }

        @Override
        public String getPersistenceProviderClassName() {
            return provider.getClass().getName();
        }

        @Override
        public PersistenceUnitTransactionType getTransactionType() {
            return jta ? PersistenceUnitTransactionType.JTA : PersistenceUnitTransactionType.RESOURCE_LOCAL;
        }

        @Override
        public DataSource getJtaDataSource() {
            return jta ? dataSource : null;
        }

        @Override
        public DataSource getNonJtaDataSource() {
            return jta ? null : dataSource;
        }

        @Override
        public List<String> getMappingFileNames() {
            return List.of();
        }

        @Override
        public List<URL> getJarFileUrls() {
            return List.of();
        }

        @Override
        public URL getPersistenceUnitRootUrl() {
            CodeSource source =
                    IdempotencyRecordEntity.class.getProtectionDomain().getCodeSource();
            return source == null ? null : source.getLocation();
        }

        @Override
        public List<String> getManagedClassNames() {
            return List.of(IdempotencyRecordEntity.class.getName());
        }

        @Override
        public boolean excludeUnlistedClasses() {
            return true;
        }

        @Override
        public SharedCacheMode getSharedCacheMode() {
            return SharedCacheMode.NONE;
        }

        @Override
        public ValidationMode getValidationMode() {
            return ValidationMode.NONE;
        }

        @Override
        public Properties getProperties() {
            return props;
        }

        @Override
        public String getPersistenceXMLSchemaVersion() {
            return "3.0";
        }

        @Override
        public ClassLoader getClassLoader() {
            return IdempotencyRecordEntity.class.getClassLoader();
        }

        @Override
        public void addTransformer(ClassTransformer transformer) {
            // No weaving, see create().
        }

        @Override
        public ClassLoader getNewTempClassLoader() {
            return IdempotencyRecordEntity.class.getClassLoader();
        }
    }
}
