package com.orderconsole.cli;

import com.orderconsole.domain.Failures;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.DurationText;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Helpers shared by the subcommands: JSON, time, durations and error formatting (option converters: {@link Converters}). */
final class Cli {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Cli() {
    }

    /** @return the document as pretty-printed JSON */
    static String json(Object doc) {
        try {
            return JSON.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e); // i18n-ok: a defect, for developers
        }
    }

    /** @return epoch milliseconds as an ISO-8601 UTC instant to the second, "-" for null */
    static String time(Long epochMs) {
        return epochMs == null ? "-" : Instant.ofEpochMilli(epochMs).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** @return an error in words for stderr: the exception's message, unwrapped from async wrappers */
    static String message(Throwable e) {
        return Failures.message(Failures.unwrap(e));
    }

    /**
     * Parses a duration in the product's one grammar ({@link DurationText}: "30m", "1h30m", "500ms", "PT30M", …).
     *
     * @throws IllegalArgumentException naming the input when it is not one
     * @throws ArithmeticException when it is longer than a duration can hold
     */
    static Duration parseDuration(String text) {
        try {
            return DurationText.parse(text);
        } catch (ArithmeticException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Messages.format("cli.duration.invalid", text));
        }
    }
}
