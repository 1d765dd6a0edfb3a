package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyHeaderTest {

    private static KeyHeader.Parsed parse(String... values) {
        return KeyHeader.parse(values == null ? null : Arrays.asList(values), "Idempotency-Key", 255);
    }

    @Test
    void absentHeaderIsMissingNotInvalid() {
        assertThat(KeyHeader.parse(null, "Idempotency-Key", 255).missing()).isTrue();
        assertThat(KeyHeader.parse(List.of(), "Idempotency-Key", 255).missing()).isTrue();
    }

    @Test
    void acceptsQuotedSfStringAndBareToken() {
        assertThat(parse("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"").key())
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(parse("8e03978e-40d5-43e8-bc93-6894a57f9324").key())
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(parse("  abc\t").key()).isEqualTo("abc");
    }

    @Test
    void sfStringKeepsSpacesAndUnescapes() {
        assertThat(parse("\"a b\\\"c\\\\d\"").key()).isEqualTo("a b\"c\\d");
    }

    @Test
    void quotedAndBareFormsOfTheSameKeyAreTheSameKey() {
        assertThat(parse("\"k-1\"").key()).isEqualTo(parse("k-1").key());
    }

    @Test
    void rejectsMalformedValues() {
        for (String bad : List.of(
                "",
                "\"\"",
                "\"unterminated",
                "\"bad\\escape\"",
                "\"x\";param=1",
                "\"x\"y",
                "a b",
                "a,b",
                "a\"b",
                "caf\u00e9",
                "tab\tinside",
                "ctl\u0001")) {
            KeyHeader.Parsed p = parse(bad);
            assertThat(p.key()).as(bad).isNull();
            assertThat(p.problem()).as(bad).isNotBlank().doesNotContain(bad.isEmpty() ? "\u0000" : bad);
        }
    }

    @Test
    void rejectsTwoHeaderLines() {
        assertThat(parse("a", "b").problem()).contains("2 times");
    }

    @Test
    void enforcesTheLengthLimitAfterUnquoting() {
        String max = "k".repeat(255);
        assertThat(parse(max).key()).isEqualTo(max);
        assertThat(parse("\"" + max + "\"").key()).isEqualTo(max);
        assertThat(parse(max + "k").problem()).contains("256 characters").contains("255");
        assertThat(KeyHeader.parse(List.of("abcd"), "K", 3).problem()).contains("limit is 3");
    }

    @Test
    void nullLineIsInvalidNotAnError() {
        List<String> values = new ArrayList<>();
        values.add(null);
        assertThat(KeyHeader.parse(values, "K", 10).problem()).contains("empty");
    }

    @Test
    void randomValuesNeverThrow() {
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 20_000; i++) {
            char[] chars = new char[random.nextInt(300)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = (char) random.nextInt(random.nextBoolean() ? 0x80 : 0x10000);
            }
            KeyHeader.Parsed p = parse(new String(chars));
            assertThat(p.key() != null ^ p.problem() != null).isTrue();
        }
    }
}
