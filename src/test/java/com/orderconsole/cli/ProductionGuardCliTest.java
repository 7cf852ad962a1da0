package com.orderconsole.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.FreshEngine;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production guard in commands (issue 26): on a production profile a bulk move, an override, a repair, a rules
 * change and a dead-letter action need {@code --yes=COUNT} (or a y/N at a terminal); refused in words with nothing
 * changed otherwise. The simulator is refused on production. A bulk that would move nothing does nothing anywhere.
 */
class ProductionGuardCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    @TempDir
    Path dir;

    private Services s;
    private final Operator ops = new Operator("setup", Role.OPS);
    private final List<String> asked = new ArrayList<>();

    @BeforeEach
    void profiles() throws IOException {
        Messages.use(Locale.ENGLISH);
        System.setProperty(Profiles.DIR_PROPERTY, dir.toString());
        s = engine.services();
        EngineConfig c = TestServers.config();
        for (String kind : List.of("production", "staging")) {
            Files.writeString(dir.resolve(kind + ".properties"), "kind = " + kind + "\nredis = " + c.redisUri() + "\njdbc = "
                    + c.jdbcUrl() + "\ndb-user = root\n");
        }
    }

    @AfterEach
    void profilesBack() {
        System.clearProperty(Profiles.DIR_PROPERTY);
    }

    private CliRunner.Run cli(OrderCli.YesPrompt yes, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), yes);
        return new CliRunner.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A run with no terminal to ask at (a script). */
    private CliRunner.Run cli(String... args) {
        return cli(question -> null, args);
    }

    private void orders(String... ids) {
        for (String id : ids) {
            s.orders().create(ops, id, null, Duration.ofMinutes(30));
        }
        s.follower().catchUp(Duration.ofSeconds(10));
    }

    private OrderStatus status(String id) {
        return s.orders().lookup(id).summary().redisStatus();
    }

    @Test
    void aBulkOnProductionWithoutTheCountIsRefusedInWordsAndChangesNothing() {
        orders("pg-1", "pg-2", "pg-3");

        CliRunner.Run r = cli("bulk", "--prefix", "pg-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "production");

        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(r.err()).contains("[production] production: bulk: move 3 orders to CANCELLED needs its count confirmed")
                .contains("Nothing was changed").contains("--yes=3").doesNotContain("Exception");
        assertThat(List.of(status("pg-1"), status("pg-2"), status("pg-3"))).containsOnly(OrderStatus.WAIT_PAY);
        assertThat(s.bulk().batches(null, 10)).as("no batch recorded").isEmpty();

        CliRunner.Run json = cli("bulk", "--prefix", "pg-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "production", "--json");
        assertThat(json.json().get("error").get("kind").asText()).isEqualTo("not_confirmed");
        assertThat(json.json().get("exit").asInt()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
    }

    @Test
    void aWrongCountIsRefusedAndTheRightOneProceeds() {
        orders("pw-1", "pw-2", "pw-3");

        CliRunner.Run wrong = cli("bulk", "--prefix", "pw-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "production",
                "--yes=30");
        assertThat(wrong.code()).as(wrong.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(wrong.err()).contains("changes 3, but --yes says 30").contains("Nothing was changed");
        assertThat(status("pw-1")).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.bulk().batches(null, 10)).isEmpty();

        CliRunner.Run right = cli("bulk", "--prefix", "pw-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "production",
                "--yes=3");
        assertThat(right.code()).as(right.err()).isZero();
        assertThat(List.of(status("pw-1"), status("pw-2"), status("pw-3"))).containsOnly(OrderStatus.CANCELLED);
    }

    @Test
    void atATerminalTheCountIsAskedAsYesOrNo() {
        orders("pt-1", "pt-2");

        CliRunner.Run no = cli(question -> {
            asked.add(question);
            return false;
        }, "bulk", "--prefix", "pt-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "production");
        assertThat(no.code()).as(no.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(asked).containsExactly("[production] production: bulk: move 2 orders to CANCELLED (2). Go ahead?");
        assertThat(status("pt-1")).isEqualTo(OrderStatus.WAIT_PAY);

        CliRunner.Run yes = cli(question -> true, "bulk", "--prefix", "pt-", "--to", "CANCELLED", "--reason", "duplicates",
                "--profile", "production");
        assertThat(yes.code()).as(yes.err()).isZero();
        assertThat(status("pt-1")).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void onStagingABulkNeedsNoCount() {
        orders("ps-1", "ps-2");
        CliRunner.Run r = cli("bulk", "--prefix", "ps-", "--to", "CANCELLED", "--reason", "duplicates", "--profile", "staging");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(status("ps-1")).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aBulkWhosePreviewMovesNothingWritesNothing() {
        orders("pz-1", "pz-2");

        // WAIT_PAY -> FINISHED is no rule: every order would be rejected.
        CliRunner.Run r = CliRunner.cli("bulk", "--prefix", "pz-", "--to", "FINISHED", "--reason", "close them", "--json");

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("preview").get("matched").asInt()).isEqualTo(2);
        assertThat(j.get("preview").get("wouldApply").asInt()).isZero();
        assertThat(j.get("batch").isNull()).isTrue();
        assertThat(s.bulk().batches(null, 10)).as("no batch").isEmpty();
        s.follower().catchUp(Duration.ofSeconds(10));
        List<HistoryEntry> h = s.orders().lookup("pz-1").history();
        assertThat(h).as("no rejection rows: only the creation").hasSize(1);
        assertThat(s.monitor().resultCounts().entrySet().stream().filter(e -> e.getKey() != ResultCode.APPLIED)
                .mapToLong(java.util.Map.Entry::getValue).sum())
                .as("nothing for the rejection-rate alert to count").isZero();
    }

    @Test
    void aForcedMoveWithoutAReasonIsRefusedInWords() {
        orders("po-1");

        CliRunner.Run r = CliRunner.cli("transition", "--id", "po-1", "--to", "SHIPPED", "--override");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("a forced move (--override) needs --reason TEXT");
        assertThat(status("po-1")).isEqualTo(OrderStatus.WAIT_PAY);

        String seen = Long.toString(s.orders().lookup("po-1").summary().redisVersion());
        CliRunner.Run prod = cli("transition", "--id", "po-1", "--to", "SHIPPED", "--override", "--reason", "carrier said so",
                "--expect-version", seen, "--profile", "production");
        assertThat(prod.code()).as(prod.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(prod.err()).contains("--yes=1");
        assertThat(status("po-1")).isEqualTo(OrderStatus.WAIT_PAY);

        CliRunner.Run ok = cli("transition", "--id", "po-1", "--to", "SHIPPED", "--override", "--reason", "carrier said so",
                "--expect-version", seen, "--profile", "production", "--yes=1");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(status("po-1")).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void theSimulatorIsRefusedOnProductionAndNeedsYesOnStaging() {
        CliRunner.Run prod = cli("traffic", "--rate", "5", "--seconds", "1", "--profile", "production", "--yes");
        assertThat(prod.code()).as(prod.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(prod.err()).contains("the traffic simulator is refused on a production environment");

        CliRunner.Run staging = cli("traffic", "--rate", "5", "--seconds", "1", "--profile", "staging");
        assertThat(staging.code()).as(staging.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(staging.err()).contains("staging environment").contains("Give --yes");
        assertThat(s.monitor().mysqlCounts().values().stream().mapToLong(Long::longValue).sum()).as("no order created").isZero();
    }

    @Test
    void aRulesChangeAndADeadLetterActionOnProductionNeedTheCount() throws IOException {
        Path rules = dir.resolve("rules.json");
        CliRunner.Run shown = CliRunner.cli("rules", "show");
        Files.writeString(rules, shown.out());
        long before = s.rules().current().version();

        CliRunner.Run refused = cli("rules", "set", rules.toString(), "--profile", "production");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(refused.err()).contains("--yes=1");
        assertThat(s.rules().current().version()).isEqualTo(before);

        CliRunner.Run letter = cli("dead-letters", "--retry", "1", "--profile", "production");
        assertThat(letter.code()).as(letter.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(letter.err()).contains("retry dead letter 1").contains("--yes=1");
    }

    private static final String OLIST_HEADER = "order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,"
            + "order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date";

    @Test
    void anImportOnProductionNeedsItsRowCountConfirmedAndWithoutItImportsNothing() throws IOException {
        Path csv = dir.resolve("olist.csv");
        Files.writeString(csv, String.join("\n", OLIST_HEADER,
                "pi-1,c1,shipped,2018-06-04 16:44:48,2018-06-05 04:31:18,2018-06-05 14:32:00,,2018-06-28 00:00:00",
                "pi-2,c2,shipped,2018-06-04 16:44:48,2018-06-05 04:31:18,2018-06-05 14:32:00,,2018-06-28 00:00:00",
                "pi-3,c3,invoiced,2017-04-11 12:22:08,2017-04-13 13:25:17,,,2017-05-09 00:00:00") + "\n");

        CliRunner.Run refused = cli("import", "--csv", csv.toString(), "--profile", "production");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(refused.err()).contains("import 3 rows from olist.csv").contains("--yes=3").contains("Nothing was changed");
        assertThat(s.monitor().mysqlCounts().values().stream().mapToLong(Long::longValue).sum()).as("no order imported").isZero();

        CliRunner.Run wrong = cli("import", "--csv", csv.toString(), "--profile", "production", "--yes=4998");
        assertThat(wrong.code()).as(wrong.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(s.monitor().mysqlCounts().values().stream().mapToLong(Long::longValue).sum()).isZero();

        CliRunner.Run ok = cli("import", "--csv", csv.toString(), "--profile", "production", "--yes=3");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(status("pi-3")).isEqualTo(OrderStatus.WAIT_SHIP);

        CliRunner.Run staging = cli("import", "--csv", csv.toString(), "--profile", "staging");
        assertThat(staging.code()).as("staging imports without a count").isZero();
    }
}
