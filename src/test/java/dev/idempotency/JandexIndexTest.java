package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The jar's Jandex index is one every runtime's Jandex reads: Helidon MP 4.2 ships Jandex 3.1.2, which
 * refuses index version 12 (written by Jandex 3.2 and later) and with it the application's OpenAPI
 * document; 3.1 reads versions up to 11.
 */
class JandexIndexTest {

    /** The newest index version Jandex 3.1 reads. */
    private static final int JANDEX_3_1_MAX_VERSION = 11;

    private static final int MAGIC = 0xBABE1F15;

    @Test
    void theIndexIsReadableByJandex31() throws IOException {
        Path index = Path.of("target/classes/META-INF/jandex.idx");
        assertThat(index)
                .as("the build writes the jar's index (jandex-maven-plugin)")
                .exists();
        try (InputStream in = Files.newInputStream(index);
                DataInputStream data = new DataInputStream(in)) {
            assertThat(data.readInt()).as("a Jandex index").isEqualTo(MAGIC);
            assertThat(data.readUnsignedByte())
                    .as("index version: Jandex 3.1 (Helidon MP 4.2) reads up to " + JANDEX_3_1_MAX_VERSION)
                    .isLessThanOrEqualTo(JANDEX_3_1_MAX_VERSION);
        }
    }
}
