package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A number used directly as a key value is keyed by its value, with the same text on every JVM: two
 * decimals are one key exactly when they are equal numbers, and a {@code double} or {@code float} is
 * the shortest decimal that reads back as it, computed without {@code Double.toString} (whose text
 * changed in Java 19: a cluster of mixed JDKs, or an upgrade within the ttl, would key a value twice).
 */
class KeyNumberProperties {

    @Provide
    Arbitrary<Double> doubles() {
        // Any bit pattern of a finite double, powers of two (where the neighbours below are closer),
        // and short decimals that users type.
        Arbitrary<Double> bits =
                Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite);
        Arbitrary<Double> typed = Arbitraries.bigDecimals()
                .between(new BigDecimal("-1e9"), new BigDecimal("1e9"))
                .ofScale(3)
                .map(BigDecimal::doubleValue);
        Arbitrary<Double> powers = Arbitraries.integers().between(-1074, 1023).map(e -> Math.scalb(1.0, e));
        return Arbitraries.oneOf(bits, typed, powers);
    }

    @Property(tries = 3000)
    void aDoubleIsTheShortestDecimalThatReadsBackAsIt(@ForAll("doubles") double d) {
        String text = CanonicalJson.keyText(d);
        assertThat(text).as("plain decimal, no exponent").matches("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?");
        BigDecimal value = new BigDecimal(text);
        assertThat(value.doubleValue()).as("%s reads back as %s", text, d).isEqualTo(d == 0 ? 0.0 : d);
        int digits = value.stripTrailingZeros().precision();
        if (digits > 2 && d != 0) {
            // No decimal of fewer digits reads back as d: neither neighbour of d at that precision.
            BigDecimal exact = new BigDecimal(d);
            MathContext fewer = new MathContext(digits - 1, RoundingMode.FLOOR);
            assertThat(exact.round(fewer).doubleValue()).isNotEqualTo(d);
            assertThat(exact.round(new MathContext(digits - 1, RoundingMode.CEILING))
                            .doubleValue())
                    .isNotEqualTo(d);
        }
        if (Runtime.version().feature() >= 19) {
            // The number Java 19's Double.toString writes (Java 17's has more digits for some values).
            assertThat(value.compareTo(new BigDecimal(Double.toString(d)))).isZero();
        }
    }

    @Property(tries = 2000)
    void aFloatIsTheShortestDecimalThatReadsBackAsIt(@ForAll float f) {
        String text = CanonicalJson.keyText(f);
        assertThat(new BigDecimal(text).floatValue())
                .as("%s reads back as %s", text, f)
                .isEqualTo(f == 0 ? 0f : f);
        assertThat(text.length())
                .isLessThanOrEqualTo(
                        new BigDecimal(Float.toString(f)).toPlainString().length() + 1);
    }

    @Property(tries = 1000)
    void twoDecimalsAreOneKeyExactlyWhenTheyAreEqualNumbers(
            @ForAll("decimals") BigDecimal a, @ForAll("decimals") BigDecimal b) {
        assertThat(CanonicalJson.keyText(a).equals(CanonicalJson.keyText(b)))
                .as("%s and %s", a, b)
                .isEqualTo(a.compareTo(b) == 0);
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        // Small values at several scales and in exponent form, so that equal numbers come up often.
        return Arbitraries.integers().between(-30, 30).flatMap(unscaled -> Arbitraries.integers()
                .between(-3, 3)
                .map(scale -> new BigDecimal(java.math.BigInteger.valueOf(unscaled), scale)));
    }

    @Example
    void numbersTheOldTextGotWrong() {
        // Double.toString on Java 17 and 19+ disagree on 2e23; the key text is one number on both.
        assertThat(CanonicalJson.keyText(2e23)).isEqualTo("200000000000000000000000");
        assertThat(CanonicalJson.keyText(1.0)).isEqualTo("1");
        assertThat(CanonicalJson.keyText(0.1)).isEqualTo("0.1");
        assertThat(CanonicalJson.keyText(-0.0)).isEqualTo("0");
        assertThat(CanonicalJson.keyText(0.1f)).isEqualTo("0.1");
        assertThat(CanonicalJson.keyText(new BigDecimal("12.50"))).isEqualTo("12.5");
        assertThat(CanonicalJson.keyText(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(CanonicalJson.keyText(12L)).isEqualTo("12");
        assertThat(CanonicalJson.keyText(Double.NaN)).isEqualTo("NaN");
    }
}
