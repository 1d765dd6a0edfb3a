package dev.idempotency.internal.stores;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import javax.sql.DataSource;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Which CDI bean is "the" data source: by name, the {@code @Named} one; by default, the one bean with the
 * default qualifier, or, where a bean named only by {@code @Named} has that qualifier too, the one without
 * a name; several unnamed or several named only: none, and {@link ContainerResources#ambiguous} says so.
 */
class ContainerResourcesTest {

    static PGSimpleDataSource source(String name) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setApplicationName(name);
        return ds;
    }

    /** A default data source and a named one: the shape of two datasources on Helidon or an app's producers. */
    @ApplicationScoped
    static class DefaultAndNamed {
        static final PGSimpleDataSource MAIN = source("main");
        static final PGSimpleDataSource LEDGER = source("ledger");

        @Produces
        DataSource main() {
            return MAIN;
        }

        @Produces
        @Named("ledger")
        DataSource ledger() {
            return LEDGER;
        }
    }

    /** Two data sources named only (Helidon's javax.sql.DataSource.a.* and .b.*): both have @Default. */
    @ApplicationScoped
    static class TwoNamed {
        @Produces
        @Named("a")
        DataSource a() {
            return source("a");
        }

        @Produces
        @Named("b")
        DataSource b() {
            return source("b");
        }
    }

    private static WeldContainer weld(Class<?> beans) {
        return new Weld().disableDiscovery().addBeanClasses(beans).initialize();
    }

    @Test
    void theDefaultIsTheUnnamedOneBesideANamedOneAndANameFindsItsOwn() {
        try (WeldContainer c = weld(DefaultAndNamed.class)) {
            assertThat(c.select(DataSource.class).isAmbiguous())
                    .as("a bean named only by @Named keeps @Default")
                    .isTrue();
            assertThat(ContainerResources.bean(DataSource.class, null)
                            .map(d -> ((PGSimpleDataSource) d).getApplicationName()))
                    .hasValue("main");
            assertThat(ContainerResources.bean(DataSource.class, "ledger")
                            .map(d -> ((PGSimpleDataSource) d).getApplicationName()))
                    .hasValue("ledger");
            assertThat(ContainerResources.ambiguous(DataSource.class)).isFalse();
        }
    }

    @Test
    void twoNamedOnlyHaveNoDefaultAndThatIsAmbiguous() {
        try (WeldContainer c = weld(TwoNamed.class)) {
            assertThat(c.select(DataSource.class).isAmbiguous()).isTrue();
            assertThat(ContainerResources.bean(DataSource.class, null)).isEmpty();
            assertThat(ContainerResources.ambiguous(DataSource.class)).isTrue();
            assertThat(ContainerResources.bean(DataSource.class, "b")
                            .map(d -> ((PGSimpleDataSource) d).getApplicationName()))
                    .hasValue("b");
            assertThat(ContainerResources.bean(DataSource.class, "c")).isEmpty();
        }
    }
}
