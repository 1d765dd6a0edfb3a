package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class ExceptionPolicyTest {

    @Test
    void defaultKeepsCheckedAndReleasesUncheckedAndErrors() {
        ExceptionPolicy p = ExceptionPolicy.DEFAULT;
        assertThat(p.keeps(new IOException())).isTrue();
        assertThat(p.keeps(new IllegalStateException())).isFalse();
        assertThat(p.keeps(new OutOfMemoryError())).isFalse();
    }

    @Test
    void releaseOnBeatsTheDefaultAndMatchesSubclasses() {
        ExceptionPolicy p = new ExceptionPolicy(List.of(), List.of(IOException.class));
        assertThat(p.keeps(new FileNotFoundException())).isFalse();
        assertThat(p.keeps(new TimeoutException())).isTrue();
    }

    @Test
    void keepOnBeatsReleaseOnLikeDontRollbackOn() {
        ExceptionPolicy p = new ExceptionPolicy(
                List.of(FileNotFoundException.class, IllegalArgumentException.class), List.of(IOException.class));
        assertThat(p.keeps(new FileNotFoundException())).isTrue();
        assertThat(p.keeps(new IOException())).isFalse();
        assertThat(p.keeps(new NumberFormatException()))
                .as("subclass of a keepOn type")
                .isTrue();
    }
}
