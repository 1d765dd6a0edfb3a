package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import org.infinispan.commons.util.Version;
import org.infinispan.manager.DefaultCacheManager;
import org.junit.jupiter.api.Test;

/** Infinispan's core and commons jars must be of one release, or the store refuses to start, saying how to align them. */
class InfinispanReleaseTest {

    @Test
    void oneReleaseInAnyPatchIsAccepted() {
        assertThatCode(() -> InfinispanStores.requireOneRelease("16.1.4", "16.1.4"))
                .doesNotThrowAnyException();
        assertThatCode(() -> InfinispanStores.requireOneRelease("16.1.4", "16.1.0"))
                .doesNotThrowAnyException();
        assertThatCode(() -> InfinispanStores.requireOneRelease("15.2.6.Final", "15.2.4.Final"))
                .doesNotThrowAnyException();
    }

    @Test
    void anUnknownVersionIsNotCompared() {
        assertThatCode(() -> InfinispanStores.requireOneRelease(null, "16.0.9")).doesNotThrowAnyException();
        assertThatCode(() -> InfinispanStores.requireOneRelease("16.1.4", null)).doesNotThrowAnyException();
    }

    @Test
    void twoReleasesFailNamingBothAndTheFix() {
        // What Quarkus 3.33's BOM gives an application that adds infinispan-core 16.1.4 alone.
        assertThatThrownBy(() -> InfinispanStores.requireOneRelease("16.1.4", "16.0.9"))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("infinispan-core 16.1.4 but infinispan-commons 16.0.9")
                .hasMessageContaining("org.infinispan:infinispan-bom:16.1.4")
                .hasMessageContaining("before io.quarkus:quarkus-bom");
        assertThatThrownBy(() -> InfinispanStores.requireOneRelease("16.1.4", "15.1.4"))
                .isInstanceOf(IdempotencyConfigurationException.class);
    }

    @Test
    void thisClassPathIsOneReleaseAndItsVersionsAreReadable() {
        String core = DefaultCacheManager.class.getPackage().getImplementationVersion();
        assertThat(core).as("infinispan-core's manifest version").isNotBlank();
        assertThat(Version.getVersion()).as("infinispan-commons's version").isNotBlank();
        assertThatCode(() -> InfinispanStores.requireOneRelease(core, Version.getVersion()))
                .doesNotThrowAnyException();
    }
}
