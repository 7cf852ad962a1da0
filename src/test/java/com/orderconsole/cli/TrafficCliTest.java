package com.orderconsole.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.app.Messages;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Locale;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code traffic}: the live-traffic simulator from the command line, bounded in count and time. */
class TrafficCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void aBoundedRunCreatesAtMostRateTimesSecondsOrdersAndSaysWhatItDid() {
        Run r = cli("traffic", "--rate", "20", "--seconds", "1", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        long created = j.get("created").asLong();
        assertThat(j.get("maxOrders").asLong()).isEqualTo(20);
        assertThat(created).isBetween(1L, 20L);
        assertThat(j.get("mysqlSynced").asBoolean()).isTrue();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'sim-%'")).as("every created order is in MySQL")
                .isEqualTo(created);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE source = 'simulator' AND to_status = 1"))
                .isEqualTo(created);

        Run text = cli("traffic", "--rate", "1", "--seconds", "1");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("Simulated traffic for 1 s at 1 orders a second:").contains("created");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'sim-%'")).isBetween(created, created + 1);
    }

    @Test
    void badValuesAreUsageErrorsAndAHumbleRoleIsRefused() {
        for (String[] args : new String[][]{{"--rate", "0"}, {"--rate", "500"}, {"--seconds", "0"}, {"--seconds", "99999"},
                {"--pay-share", "2"}, {"--pay-share", "0.7", "--late-pay-share", "0.7"}, {"--payment-timeout", "soon"}}) {
            String[] all = new String[args.length + 1];
            all[0] = "traffic";
            System.arraycopy(args, 0, all, 1, args.length);
            Run r = cli(all);
            assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(ExitCode.USAGE.code());
            assertThat(r.err()).contains(args[0]);
        }
        Run support = cli("traffic", "--seconds", "1", "--role", "support");
        assertThat(support.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(support.err()).contains("run the traffic simulator");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).as("nothing was created").isZero();
    }
}
