package com.orderconsole.cli;

import com.orderconsole.domain.Failures;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.DurationText;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Helpers shared by the subcommands: value converters, JSON, time and error formatting. */
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

    /** --expire-in and similar: a positive duration. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                Duration d = parseDuration(value);
                if (d.isZero() || d.isNegative()) {
                    throw new TypeConversionException(Messages.format("cli.duration.notPositive", value));
                }
                return d;
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new TypeConversionException(e instanceof ArithmeticException ? Messages.format("cli.duration.tooLong", value) : e.getMessage());
            }
        }
    }

    /** Ids and versions (--batch, --retry, --discard, --expect-version): a whole number of 1 or more. */
    static final class PositiveLongConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                long n = Long.parseLong(value.trim());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // falls through to the same words as a number below 1
            }
            throw new TypeConversionException(Messages.format("cli.number.notPositive", value));
        }
    }

    /**
     * --yes: nothing ({@code --yes} alone) or a whole number, the count the person confirms. Words, a sign or a fraction
     * are a usage error (exit 2) naming the form, not a refusal by the environment.
     */
    static final class YesConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String v = value.strip();
            if (v.isEmpty() || v.chars().allMatch(c -> c >= '0' && c <= '9') && v.length() <= 18) {
                return v;
            }
            throw new TypeConversionException(Messages.format("cli.yes.notCount", value));
        }
    }

    /** --redis: a Redis URI's form, checked before any server is asked (a malformed one is a usage error). */
    static final class RedisUriConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return checked(value, EngineConfig::requireRedisUri);
        }
    }

    /** --jdbc: a MySQL JDBC URL's form, checked before any server is asked. */
    static final class JdbcUrlConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return checked(value, EngineConfig::requireJdbcUrl);
        }
    }

    /** @return the value once {@code check} accepts it; its words as picocli's usage error otherwise */
    private static String checked(String value, java.util.function.Consumer<String> check) {
        try {
            check.accept(value);
            return value;
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** --buckets: a bucket count the engine can work with, 1 to {@link EngineConfig#MAX_BUCKETS}. */
    static final class BucketsConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 1 && n <= EngineConfig.MAX_BUCKETS) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // falls through to the same words as a count out of range below
            }
            throw new TypeConversionException(Messages.format("cli.buckets.outOfRange", value, EngineConfig.MAX_BUCKETS));
        }
    }

    /** --to: a status by name or code. */
    static final class StatusConverter implements ITypeConverter<OrderStatus> {
        @Override
        public OrderStatus convert(String value) {
            try {
                return OrderStatus.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --role. */
    static final class RoleConverter implements ITypeConverter<Role> {
        @Override
        public Role convert(String value) {
            try {
                return Role.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --id: checked against the id syntax before any key or query is built from it. */
    static final class OrderIdConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return OrderId.require(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
