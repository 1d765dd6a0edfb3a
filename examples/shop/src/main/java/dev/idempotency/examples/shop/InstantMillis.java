package dev.idempotency.examples.shop;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.time.Instant;

/**
 * Stores instants as epoch milliseconds in a BIGINT column: EclipseLink 4 on H2 would otherwise map
 * {@link Instant} to a binary column, and a number compares the same in every database and time zone.
 */
@Converter(autoApply = true)
public class InstantMillis implements AttributeConverter<Instant, Long> {

    @Override
    public Long convertToDatabaseColumn(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    @Override
    public Instant convertToEntityAttribute(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }
}
