package com.orderconsole.cli;

import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.function.Function;

/**
 * The option converters of the subcommands: what an option's text must be, checked before any server is asked. A
 * value that is not one is picocli's usage error (exit 2) in the words of the check that refused it.
 */
final class Converters {
    private Converters() {
    }

    /**
     * The one shape most options share: the product's own check reads the text and says in words why it refuses it.
     * picocli builds a converter by its class, so each option names a small subclass that says which check.
     *
     * @param <T> what the option holds
     */
    abstract static class Checked<T> implements ITypeConverter<T> {
        private final Function<String, T> check;

        Checked(Function<String, T> check) {
            this.check = check;
        }

        /** @throws TypeConversionException with the check's words when it refuses the text */
        @Override
        public final T convert(String value) {
            try {
                return check.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --to: a status by name or code. */
    static final class StatusConverter extends Checked<OrderStatus> {
        StatusConverter() {
            super(OrderStatus::parse);
        }
    }

    /** --role. */
    static final class RoleConverter extends Checked<Role> {
        RoleConverter() {
            super(Role::parse);
        }
    }

    /** --id: checked against the id syntax before any key or query is built from it. */
    static final class OrderIdConverter extends Checked<String> {
        OrderIdConverter() {
            super(OrderId::require);
        }
    }

    /** --redis: a Redis URI's form, checked before any server is asked (a malformed one is a usage error). */
    static final class RedisUriConverter extends Checked<String> {
        RedisUriConverter() {
            super(v -> {
                EngineConfig.requireRedisUri(v);
                return v;
            });
        }
    }

    /** --jdbc: a MySQL JDBC URL's form, checked before any server is asked. */
    static final class JdbcUrlConverter extends Checked<String> {
        JdbcUrlConverter() {
            super(v -> {
                EngineConfig.requireJdbcUrl(v);
                return v;
            });
        }
    }

    /** --server: serve's API base URL, https (http for this machine only), checked before anything is asked. */
    static final class ServerUrlConverter extends Checked<java.net.URI> {
        ServerUrlConverter() {
            super(com.orderconsole.app.remote.ServeUrl::parse);
        }
    }

    /** --issuer: the identity provider's issuer URL, https (http for this machine only). */
    static final class IssuerUrlConverter extends Checked<java.net.URI> {
        IssuerUrlConverter() {
            super(com.orderconsole.app.remote.ServeUrl::parseIssuer);
        }
    }

    /** --expire-in and similar: a positive duration. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                Duration d = Cli.parseDuration(value);
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
}
