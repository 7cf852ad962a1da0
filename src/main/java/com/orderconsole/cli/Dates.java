package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Dates and times on the command line: a day (2018-01-31, midnight UTC) or an instant (2018-01-31T12:00:00Z). */
final class Dates {
    private Dates() {
    }

    /**
     * @param text a day, a UTC date-time without zone, or an ISO instant
     * @return epoch milliseconds
     * @throws IllegalArgumentException naming the input when it is none of these
     */
    static long parseMs(String text) {
        String t = text == null ? "" : text.strip();
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) {
                return Instant.parse(t).toEpochMilli();
            }
            return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(Messages.format("bulk.cli.badDate", text));
        }
    }

    /** Picocli converter for date options. */
    static final class Converter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseMs(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
