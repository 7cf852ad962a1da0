package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.app.Messages;
import com.orderconsole.cli.CliRunner.Run;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Locale;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/** A bad value of a numeric option is a usage error (exit 2) that names the option and changes nothing. */
class OptionValuesCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @BeforeEach
    void oneOrder() {
        Messages.use(Locale.ENGLISH);
        engine.services().orders().create(new Operator("setup", Role.SUPPORT), "n-1", null, Duration.ofMinutes(30));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "stats --buckets 0                                   | --buckets",
            "stats --buckets=-3                                  | --buckets",
            "stats --buckets 5000                                | --buckets",
            "stats --buckets many                                | --buckets",
            "dead-letters --limit 0                              | --limit",
            "dead-letters --limit=-1                             | --limit",
            "dead-letters --retry 0                              | --retry",
            "dead-letters --discard=-2 --reason x                | --discard",
            "bulk --batch 0                                      | --batch",
            "bulk --batch one                                    | --batch",
            "transition --id n-1 --to PAID --expect-version 0    | --expect-version",
            "transition --id n-1 --to PAID --expect-version=-1   | --expect-version",
            "audit --limit 0                                     | --limit",
            "audit --code 9                                      | 9",
            "serve --metrics-port 70000                          | --metrics-port",
            "serve --metrics-port=-1                             | --metrics-port",
    })
    void aBadNumberIsAUsageErrorInWords(String args, String named) {
        Run r = cli(args.trim().split(" +"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains(named).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(RawSql.count("SELECT version FROM orders WHERE order_id = 'n-1'")).as("nothing changed").isEqualTo(1);
    }

    /** A server address of the wrong form is refused before any server is asked, with secrets masked (trial: exit 1, "No suitable driver"). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--redis redis//127.0.0.1:6379 --jdbc jdbc:mysql://127.0.0.1:1/orders stats          | is not a Redis URI",
            "--redis redis://u:s3cret@127.0.0.1:6379/abc --jdbc jdbc:mysql://127.0.0.1:1/o stats | is not a Redis URI",
            "--redis redis://127.0.0.1:6379/0 --jdbc jdbc:postgresql://127.0.0.1:5432/o stats    | is not a MySQL JDBC URL",
            "--redis redis://127.0.0.1:6379/0 --jdbc mysql://127.0.0.1:3306/o stats              | is not a MySQL JDBC URL",
    })
    void aServerAddressOfTheWrongFormIsAUsageErrorInWords(String args, String named) {
        Run r = CliRunner.raw(args.trim().split(" +"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains(named).doesNotContain("s3cret").doesNotContain("No suitable driver").doesNotContain("Exception");
    }
}
