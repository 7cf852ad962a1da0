package com.orderconsole.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static com.orderconsole.cli.CliRunner.cli;
import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;

/** Every subcommand end to end: arguments in, exit code and stdout/stderr out, state checked in the stores. */
class OrderCliTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final String HEADER = "order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,"
            + "order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date";

    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator ops = new Operator("olivia", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    // ---------------------------------------------------------------- import

    @Test
    void importReportsBadRowsAndAReimportChangesNothing(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("olist.csv");
        Files.writeString(csv, String.join("\n", HEADER,
                "i-1,c1,delivered,2017-10-02 10:56:33,2017-10-02 11:07:15,2017-10-04 19:55:00,2017-10-10 21:25:13,",
                ",c1,shipped,10/2/2017 10:56,,,,",
                "i-2,c2,shipped,10/2/2017 10:56,10/3/2017 8:00,10/4/2017 9:00,,") + "\n");

        Run first = cli("import", "--csv", csv.toString());
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("Read 3 rows").contains("2 imported, 0 already stored, 1 bad row skipped")
                .contains("line 3: order_id is empty");
        assertThat(s.orders().lookup("i-2").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);

        Run again = cli("import", "--csv", csv.toString(), "--json");
        assertThat(again.code()).isZero();
        JsonNode j = again.json();
        assertThat(j.get("rowsRead").asLong()).isEqualTo(3);
        assertThat(j.get("imported").asLong()).isZero();
        assertThat(j.get("skippedDuplicates").asLong()).isEqualTo(2);
        assertThat(j.get("problems").get(0).get("line").asLong()).isEqualTo(3);
        assertThat(j.get("problems").get(0).get("reason").asText()).isEqualTo("order_id is empty");
    }

    @Test
    void anImportWithNoGoodRowExitsSixWithTheBadRowsListed(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, String.join("\n", HEADER, ",c1,shipped,10/2/2017 10:56,,,,", "bad id!,c2,shipped,10/2/2017 10:56,,,,") + "\n");

        Run r = cli("import", "--csv", csv.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.NO_GOOD_ROW.code()).isEqualTo(6);
        assertThat(r.out()).contains("line 2: order_id is empty");
        assertThat(r.err()).contains("bad.csv has no good row: nothing was imported (all 2 rows are bad).");

        Run json = cli("import", "--csv", csv.toString(), "--json");
        assertThat(json.code()).isEqualTo(6);
        assertThat(json.json().get("badRows").asInt()).isEqualTo(2);
        assertThat(json.json().get("error").get("kind").asText()).isEqualTo("no_good_row");
        assertThat(json.json().get("exit").asInt()).isEqualTo(6);
    }

    @Test
    void importOfAMissingFileFailsAndWithoutCsvIsAUsageError(@TempDir Path dir) {
        Run missing = cli("import", "--csv", dir.resolve("nope.csv").toString());
        assertThat(missing.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(missing.err()).contains("nope.csv").contains("no such file");
        assertThat(missing.out()).isEmpty();

        Run usage = cli("import");
        assertThat(usage.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(usage.err()).contains("--csv");
    }

    // ---------------------------------------------------------------- create

    @Test
    void createAcceptsShortAndIsoDurations() {
        Run r = cli("create", "--id", "c-1", "--expire-in", "90s");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Created order c-1: WAIT_PAY v1, payment due by ");
        OrderDetails d = s.orders().lookup("c-1");
        assertThat(d.queueExpiryMs() - d.summary().createdAtMs()).isEqualTo(90_000);

        JsonNode j = cli("create", "--id", "c-2", "--expire-in", "PT30M", "--customer", "cust-9", "--json").json();
        assertThat(j.get("expireAtMs").asLong() - j.get("createdAtMs").asLong()).isEqualTo(1_800_000);
        assertThat(j.get("status").asText()).isEqualTo("WAIT_PAY");
        assertThat(s.orders().lookup("c-2").summary().customerId()).isEqualTo("cust-9");

        assertThat(cli("create", "--id", "c-3", "--expire-in", "1h30m", "--json").json().get("expireAtMs").asLong()
                - s.orders().lookup("c-3").summary().createdAtMs()).isEqualTo(5_400_000);
    }

    @Test
    void createRefusesBadInputWithTheRightExitCode() {
        Run badDuration = cli("create", "--id", "c-1", "--expire-in", "soon");
        assertThat(badDuration.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(badDuration.err()).contains("invalid duration 'soon'");

        Run badId = cli("create", "--id", "has space");
        assertThat(badId.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(badId.err()).contains("order id 'has space' is invalid");

        assertThat(cli("create", "--id", "c-1").code()).isZero();
        Run dup = cli("create", "--id", "c-1");
        assertThat(dup.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(dup.err()).contains("order c-1 already exists");

        Run readOnly = cli("create", "--id", "c-2", "--role", "read_only");
        assertThat(readOnly.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(readOnly.err()).contains("may not create orders");
    }

    // ---------------------------------------------------------------- transition

    @Test
    void anAppliedTransitionIsInMySqlWhenTheCommandReturns() {
        s.orders().create(ops, "t-1", null, Duration.ofMinutes(30));
        Run r = cli("transition", "--id", "t-1", "--to", "paid", "--actor", "payment-gw", "--reason", "callback 42");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("WAIT_PAY -> PAID applied, now v2");

        OrderDetails d = s.orders().lookup("t-1");
        assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(d.summary().mysqlVersion()).isEqualTo(2);
        HistoryEntry last = d.history().get(d.history().size() - 1);
        assertThat(last.actor()).isEqualTo("payment-gw");
        assertThat(last.source()).isEqualTo("cli");
        assertThat(last.reason()).isEqualTo("callback 42");
    }

    @Test
    void aRejectedTransitionExitsWith3AndShowsTheCode() {
        s.orders().create(ops, "t-2", null, Duration.ofMinutes(30));
        Run skip = cli("transition", "--id", "t-2", "--to", "FINISHED");
        assertThat(skip.code()).isEqualTo(ExitCode.REJECTED.code());
        assertThat(skip.out()).contains("rejected with code 0").contains("stays WAIT_PAY v1");

        assertThat(cli("transition", "--id", "t-2", "--to", "6").code()).isZero();
        Run late = cli("transition", "--id", "t-2", "--to", "PAID", "--json");
        assertThat(late.code()).isEqualTo(ExitCode.REJECTED.code());
        JsonNode j = late.json();
        assertThat(j.get("applied").asBoolean()).isFalse();
        assertThat(j.get("code").asInt()).isEqualTo(-2);
        assertThat(j.get("result").asText()).isEqualTo("TERMINAL");
        assertThat(j.get("from").asText()).isEqualTo("CANCELLED");
        assertThat(j.get("mysqlSynced").asBoolean()).isTrue();
        assertThat(s.orders().lookup("t-2").history()).as("the rejection is in the MySQL history")
                .anyMatch(h -> h.code().code() == -2);

        Run conflict = cli("transition", "--id", "t-2", "--to", "PAID", "--expect-version", "1");
        assertThat(conflict.code()).isEqualTo(ExitCode.REJECTED.code());
        assertThat(conflict.out()).contains("code -3");
    }

    @Test
    void transitionFailuresAndUsageErrors() {
        Run unknown = cli("transition", "--id", "ghost", "--to", "PAID");
        assertThat(unknown.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(unknown.err()).contains("order ghost not found");

        Run badStatus = cli("transition", "--id", "x", "--to", "LOST");
        assertThat(badStatus.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(badStatus.err()).contains("unknown status 'LOST'");
        Run spaced = cli("transition", "--id", "x", "--to", "PAID ");
        assertThat(spaced.code()).as("the CLI reads a status by the API's rule").isEqualTo(ExitCode.USAGE.code());
        assertThat(spaced.err()).contains("status 'PAID ' has");

        s.orders().create(ops, "t-3", null, Duration.ofMinutes(30));
        Run readOnly = cli("transition", "--id", "t-3", "--to", "PAID", "--role", "read-only");
        assertThat(readOnly.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(readOnly.err()).contains("may not change order status");
        assertThat(s.orders().lookup("t-3").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);

        Run badRole = cli("transition", "--id", "t-3", "--to", "PAID", "--role", "boss");
        assertThat(badRole.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(badRole.err()).contains("unknown role 'boss'");
    }

    // ---------------------------------------------------------------- show

    @Test
    void showPrintsStateAndHistoryAsTextAndJson() {
        s.orders().create(ops, "sh-1", "cust-1", Duration.ofMinutes(30));
        s.transitions().transition(ops, TransitionRequest.of("sh-1", OrderStatus.PAID, "test", "paid"));
        s.follower().drainOnce();

        Run text = cli("show", "--id", "sh-1");
        assertThat(text.code()).isZero();
        assertThat(text.out()).contains("Order sh-1 (customer cust-1)").contains("Redis:   PAID v2").contains("MySQL:   PAID v2")
                .contains("allowed next: [WAIT_SHIP]").contains("(new)").contains("WAIT_PAY  -> PAID");

        JsonNode j = cli("show", "--id", "sh-1", "--json").json();
        assertThat(j.get("summary").get("redisStatus").asText()).isEqualTo("PAID");
        assertThat(j.get("summary").get("mysqlVersion").asLong()).isEqualTo(2);
        assertThat(j.get("history")).hasSize(2);
        assertThat(j.get("history").get(1).get("actor").asText()).isEqualTo("olivia");
        assertThat(j.get("legalTargets").get(0).asText()).isEqualTo("WAIT_SHIP");

        Run missing = cli("show", "--id", "nope");
        assertThat(missing.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(missing.err()).contains("order nope not found");
        assertThat(missing.out()).isEmpty();
    }

    /** Issue 33: a move Redis accepted that the follower has not applied yet is shown, marked pending, not hidden. */
    @Test
    void showListsAPendingMoveMarkedAsPending() {
        s.orders().create(ops, "sh-2", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        s.transitions().transition(ops, TransitionRequest.of("sh-2", OrderStatus.PAID, "test", "paid"));
        assertThat(s.orders().lookup("sh-2").pending()).singleElement().satisfies(h -> {
            assertThat(h.to()).isEqualTo(OrderStatus.PAID);
            assertThat(h.version()).isEqualTo(2);
        });
        assertThat(s.orders().lookup("sh-2").history()).as("MySQL has only the creation").hasSize(1);
        Run text = cli("show", "--id", "sh-2");
        assertThat(text.out()).containsPattern("WAIT_PAY +-> PAID .*sync pending");
        assertThat(cli("show", "--id", "sh-2", "--json").json().get("pending")).hasSize(1);
        s.follower().drainOnce();
        assertThat(s.orders().lookup("sh-2").pending()).as("applied: in the history, no longer pending").isEmpty();
    }

    // ---------------------------------------------------------------- sweep, sync, reconcile

    @Test
    void sweepOnceCancelsOverdueOrdersAndLeavesMySqlInSync() throws Exception {
        s.orders().create(ops, "sw-1", null, Duration.ofMillis(1));
        s.orders().create(ops, "sw-2", null, Duration.ofMinutes(30));
        Thread.sleep(20); // let sw-1's deadline pass

        Run r = cli("sweep", "--once", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().get("cancelled").asInt()).isEqualTo(1);
        assertThat(r.json().get("mysqlSynced").asBoolean()).isTrue();
        assertThat(s.orders().lookup("sw-1").summary().mysqlStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(s.orders().lookup("sw-2").summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);

        assertThat(cli("sweep", "--once").out()).isEqualTo("Cancelled 0 unpaid orders past the payment deadline." + System.lineSeparator());
        assertThat(cli("sweep").code()).as("--once is required").isEqualTo(ExitCode.USAGE.code());
        Run viewer = cli("sweep", "--once", "--role", "support");
        assertThat(viewer.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(viewer.err()).contains("may not run the cancel sweeper");
    }

    @Test
    void syncAppliesTheOutboxToMySql() {
        s.orders().create(ops, "sy-1", null, Duration.ofMinutes(30));
        s.transitions().transition(ops, TransitionRequest.of("sy-1", OrderStatus.PAID, "test", ""));
        assertThat(s.orders().lookup("sy-1").summary().mysqlStatus()).as("no follower runs in tests").isEqualTo(OrderStatus.WAIT_PAY);

        Run r = cli("follower", "--json");
        assertThat(r.code()).isZero();
        assertThat(r.json().get("applied").asInt()).isEqualTo(1);
        assertThat(r.json().get("pending").asInt()).isZero();
        assertThat(s.orders().lookup("sy-1").summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(cli("follower").out()).contains("Applied 0 outbox entries to MySQL; 0 pending now.");
    }

    @Test
    void reconcileFindsDisagreementsAndRepairFixesThem() {
        s.orders().create(ops, "rc-1", null, Duration.ofMinutes(30));
        s.orders().create(ops, "rc-2", null, Duration.ofMinutes(30));
        s.transitions().transition(ops, TransitionRequest.of("rc-1", OrderStatus.PAID, "test", ""));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("rc-2"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("rc-2")), "rc-2");
        }

        Run check = cli("reconcile");
        assertThat(check.code()).as("a script sees drift in the exit code").isEqualTo(ExitCode.DRIFT.code());
        assertThat(check.out()).contains("Missing in Redis").contains("rc-2").contains("MySQL sync pending");
        JsonNode j = cli("reconcile", "--json").json();
        assertThat(j.get("before").get("counts").get("MISSING_IN_REDIS").asLong()).isEqualTo(1);
        assertThat(j.get("before").get("counts").get("SYNC_PENDING").asLong()).isEqualTo(1);
        assertThat(j.has("after")).isFalse();
        assertThat(s.orders().lookup("rc-1").summary().mysqlStatus()).as("a check changes nothing").isEqualTo(OrderStatus.WAIT_PAY);

        Run repair = cli("reconcile", "--repair", "--json");
        assertThat(repair.code()).as("nothing left after the repair: " + repair.err()).isZero();
        JsonNode repaired = repair.json();
        long remaining = 0;
        for (JsonNode n : repaired.get("after").get("counts")) {
            remaining += n.asLong();
        }
        assertThat(remaining).isZero();
        assertThat(s.orders().lookup("rc-1").summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().hget(RedisKeys.order("rc-2"), "status")).isEqualTo("1");
        }
        assertThat(cli("reconcile", "--repair", "--role", "support").err()).contains("may not repair");

        // The audit log records repairs as 'reconciliation'; the word people type finds them too.
        for (String word : List.of("repair", "Repair", "reconciliation", "recon")) {
            Run audit = cli("audit", "--source", word, "--json");
            assertThat(audit.code()).as(word + ": " + audit.err()).isZero();
            List<String> ids = new ArrayList<>();
            audit.json().get("rows").forEach(r -> ids.add(r.get("orderId").asText()));
            assertThat(ids).as(word).contains("rc-2");
        }
        Run unknown = cli("audit", "--source", "repiar");
        assertThat(unknown.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(unknown.err()).contains("unknown source 'repiar'").contains("console, cli, sweeper").contains("repair");
    }

    // ---------------------------------------------------------------- stats

    @Test
    void statsCountsPerStatusAndPerResultCode() {
        s.orders().create(ops, "st-1", null, Duration.ofMinutes(30));
        s.orders().create(ops, "st-2", null, Duration.ofMinutes(30));
        s.transitions().transition(ops, TransitionRequest.of("st-1", OrderStatus.PAID, "test", ""));
        s.transitions().transition(ops, TransitionRequest.of("st-2", OrderStatus.SHIPPED, "test", ""));
        s.follower().drainOnce();

        JsonNode j = cli("stats", "--json").json();
        assertThat(j.get("statuses").get("WAIT_PAY").get("redis").asLong()).isEqualTo(1);
        assertThat(j.get("statuses").get("WAIT_PAY").get("mysql").asLong()).isEqualTo(1);
        assertThat(j.get("statuses").get("PAID").get("mysql").asLong()).isEqualTo(1);
        assertThat(j.get("results").get("APPLIED").get("count").asLong()).isEqualTo(1);
        assertThat(j.get("results").get("NOT_ALLOWED").get("code").asInt()).isZero();
        assertThat(j.get("results").get("NOT_ALLOWED").get("count").asLong()).isEqualTo(1);
        assertThat(j.get("health").get("redisUp").asBoolean()).isTrue();

        Run text = cli("stats");
        assertThat(text.out()).containsPattern("WAIT_PAY\\s+1\\s+1").containsPattern("PAID\\s+1\\s+1")
                .containsPattern("0 not a legal move from the current status\\s+1");
    }

    /** The new-user trial found the -6 row (its label the longest) pushed out of the count column. */
    @ParameterizedTest
    @ValueSource(strings = {"en", "zh-CN"})
    void statsRowsLineUpInTheirColumns(String lang) {
        List<String> lines;
        try {
            lines = cli("--lang", lang, "stats").out().lines().toList();
        } finally {
            com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        }
        String all = String.join("\n", lines);
        // Header and one row per status: a name, then right-aligned columns ending where the header's do.
        List<String> statusTable = lines.subList(0, 1 + OrderStatus.values().length);
        assertThat(statusTable.stream().map(OrderCliTest::numberColumnEnds).distinct()).as(all).hasSize(1);
        // One row per result code: code, label, count; every count ends in the same column.
        List<String> results = lines.stream().filter(l -> l.matches("^ +-?\\d+ .* \\d+$")).toList();
        assertThat(results).as(all).hasSize(com.orderconsole.domain.ResultCode.values().length);
        assertThat(results.stream().map(OrderCliTest::width).distinct()).as(all).hasSize(1);
        assertThat(results.stream().map(l -> l.replaceFirst("^( +-?\\d+ ).*", "$1").length()).distinct()).as("labels start in one column: " + all)
                .hasSize(1);
    }

    /** @return where each column after the first ends, in terminal columns */
    private static List<Integer> numberColumnEnds(String line) {
        List<Integer> ends = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\S+").matcher(line);
        m.find(); // the status name, left-aligned
        while (m.find()) {
            ends.add(width(line.substring(0, m.end())));
        }
        return ends;
    }

    /** @return the width of a text in terminal columns: a CJK or full-width character takes two */
    private static int width(String text) {
        return text.codePoints().map(cp -> cp >= 0x2E80 && cp <= 0xFFEF && !(cp >= 0xFF61 && cp <= 0xFFDC) ? 2 : 1).sum();
    }

    // ---------------------------------------------------------------- rules

    @Test
    void rulesShowValidateAndSet(@TempDir Path dir) throws Exception {
        Run show = cli("rules", "show");
        assertThat(show.code()).isZero();
        JsonNode rules = JSON.readTree(show.out());
        assertThat(rules.get("version").asLong()).isEqualTo(1);
        assertThat(rules.get("transitions").get("WAIT_PAY")).hasSize(2);

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\"],"
                + "\"PAID\":[\"WAIT_PAY\"]}}");
        Run invalid = raw("rules", "validate", bad.toString());
        assertThat(invalid.code()).as("validate needs no server").isEqualTo(ExitCode.FAILED.code());
        assertThat(invalid.err()).contains("cycle into WAIT_PAY").contains("unreachable from WAIT_PAY");
        JsonNode ij = raw("rules", "validate", bad.toString(), "--json").json();
        assertThat(ij.get("valid").asBoolean()).isFalse();
        assertThat(ij.get("faults").size()).isGreaterThanOrEqualTo(2);

        // A file that cannot be read says why in words (the JDK said "Input length = 1", or repeated the path).
        Path latin1 = dir.resolve("latin1.json");
        Files.write(latin1, new byte[]{'{', '"', (byte) 0xE9, '"', '}'});
        assertThat(raw("rules", "validate", latin1.toString()).err()).contains("not UTF-8 text").doesNotContain("Input length");
        assertThat(raw("rules", "validate", dir.resolve("nowhere.json").toString()).err()).contains("no such file");
        assertThat(raw("rules", "validate", dir.toString()).err()).contains("a folder, not a file");

        Path good = dir.resolve("good.json");
        Files.writeString(good, "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}");
        Run valid = raw("rules", "validate", good.toString());
        assertThat(valid.code()).isZero();
        assertThat(valid.out()).contains("is valid: 6 transitions");

        assertThat(cli("rules", "set", good.toString(), "--role", "support").code()).isEqualTo(ExitCode.FAILED.code());
        Run bad2 = cli("rules", "set", bad.toString());
        assertThat(bad2.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(JSON.readTree(cli("rules", "show").out()).get("version").asLong()).as("invalid rules change nothing").isEqualTo(1);

        Run set = cli("rules", "set", good.toString());
        assertThat(set.code()).as(set.err()).isZero();
        assertThat(set.out()).contains("Rules version 2 in force");
        s.orders().create(ops, "ru-1", null, Duration.ofMinutes(30));
        assertThat(cli("transition", "--id", "ru-1", "--to", "PAID").code()).isZero();
        assertThat(cli("transition", "--id", "ru-1", "--to", "CANCELLED").code()).as("the new edge is in force").isZero();

        assertThat(cli("rules").code()).isEqualTo(ExitCode.USAGE.code());
    }

    // ---------------------------------------------------------------- global behaviour

    @ParameterizedTest
    @ValueSource(strings = {"import", "create", "transition", "show", "sweep", "follower", "reconcile", "stats", "rules",
            "rules show", "rules validate", "rules set"})
    void everySubcommandHasHelp(String sub) {
        List<String> args = new ArrayList<>(List.of(sub.split(" ")));
        args.add("--help");
        Run r = raw(args.toArray(String[]::new));
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage: order-console " + sub).contains("--json").contains("--redis");
    }

    @Test
    void connectionOptionsWorkAfterTheSubcommandToo() {
        s.orders().create(ops, "g-1", null, Duration.ofMinutes(30));
        EngineConfig c = TestServers.config();
        Run r = raw("show", "--id", "g-1", "--json", "--redis", c.redisUri(), "--jdbc", c.jdbcUrl());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().get("summary").get("orderId").asText()).isEqualTo("g-1");
    }

    @Test
    void thePasswordComesFromTheNamedVariableAndIsNeverPrinted() {
        Run unset = cli("stats", "--db-password-env", "ORDER_CONSOLE_TEST_UNSET_VARIABLE");
        assertThat(unset.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(unset.err()).contains("ORDER_CONSOLE_TEST_UNSET_VARIABLE").contains("not set");

        // The embedded test MariaDB accepts any password; PATH is set in every environment.
        String secret = System.getenv("PATH");
        Run set = cli("stats", "--db-password-env", "PATH");
        assertThat(set.code()).as(set.err()).isZero();
        assertThat(set.out() + set.err()).doesNotContain(secret);
    }

    @Test
    void unknownCommandsAndNoCommandAreUsageErrors() {
        Run none = raw();
        assertThat(none.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(none.err()).contains("subcommand");
        Run unknown = raw("explode");
        assertThat(unknown.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(unknown.err()).contains("explode");
    }

    @Test
    void oneServerOptionWithoutTheOtherIsAUsageErrorAndStartsNothing() {
        EngineConfig c = TestServers.config();
        Run redisOnly = raw("--redis", c.redisUri(), "follower");
        assertThat(redisOnly.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(redisOnly.err()).contains("--redis was given without --jdbc").contains("would split the system");
        Run jdbcOnly = raw("stats", "--jdbc", c.jdbcUrl());
        assertThat(jdbcOnly.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(jdbcOnly.err()).contains("--jdbc was given without --redis");
    }

    /**
     * The DBA guide's set-up step, {@code migrate --jdbc URL --db-user ADMIN}, names no Redis: migrating opens
     * none, so the "one server without the other" refusal must not apply (it did: exit 1, "--jdbc was given
     * without --redis").
     */
    @Test
    void migrateNeedsOnlyTheDatabase() {
        EngineConfig c = TestServers.config();
        Run migrated = raw("migrate", "--jdbc", c.jdbcUrl());
        assertThat(migrated.code()).as(migrated.err()).isZero();
        assertThat(migrated.out()).containsPattern("Applied (0 migrations|\\d+ migrations?); the schema is at version \\d+\\.");

        Run noDatabase = raw("migrate");
        assertThat(noDatabase.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(noDatabase.err()).contains("migrate needs --jdbc");
    }

    @Test
    void deadLettersAreListedInStatsAndRetriedOrDiscardedByOps() {
        s.orders().create(new Operator("alice", Role.SUPPORT), "dl-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("dl-1"), "status", "7");
        }
        Run rejected = cli("transition", "--id", "dl-1", "--to", "PAID");
        assertThat(rejected.code()).isEqualTo(ExitCode.REJECTED.code());
        assertThat(rejected.out()).contains("code -6").contains("its Redis record could not be read")
                .as("a malformed record has no status to name").doesNotContain("null");
        assertThat(cli("stats").out()).contains("Dead letters: 1 open");
        Run listed = cli("dead-letters", "--json");
        assertThat(listed.code()).as(listed.err()).isZero();
        JsonNode letter = listed.json().get("letters").get(0);
        assertThat(letter.get("orderId").asText()).isEqualTo("dl-1");
        assertThat(letter.get("kind").asText()).isEqualTo("ORDER_RECORD");
        assertThat(cli("dead-letters").out()).as("the kind in words, not as stored").contains("malformed record")
                .doesNotContain("ORDER_RECORD");
        try {
            assertThat(cli("--lang", "zh-CN", "dead-letters").out()).contains("格式错误的记录");
        } finally {
            com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        }
        Run noReason = cli("dead-letters", "--discard", letter.get("id").asText());
        assertThat(noReason.code()).isEqualTo(ExitCode.USAGE.code());
        Run retried = cli("--role", "ops", "dead-letters", "--retry", letter.get("id").asText());
        assertThat(retried.code()).as(retried.err()).isZero();
        assertThat(retried.out()).contains("retried").contains("WAIT_PAY v1");
        assertThat(cli("dead-letters").out()).contains("No open dead letters.");
    }

    // ---------------------------------------------------------------- issue 12

    /** Issue 12, minor: with --json every run prints one JSON document, errors included, with the same exit codes. */
    @Test
    void jsonRunsPrintOneDocumentOnErrorsToo() {
        Run usage = cli("show", "--json");
        assertThat(usage.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(usage.json().get("exit").asInt()).isEqualTo(ExitCode.USAGE.code());
        assertThat(usage.json().get("error").get("message").asText()).isNotBlank();
        assertThat(usage.json().get("error").get("kind").asText()).isEqualTo("usage");

        Run missing = cli("show", "--id", "NOPE", "--json");
        assertThat(missing.code()).isEqualTo(ExitCode.FAILED.code());
        JsonNode e = missing.json();
        // One shape for every failure, and nothing a script could read as a result code (issue 26: "code": 1 read as applied).
        assertThat(e.get("exit").asInt()).isEqualTo(ExitCode.FAILED.code());
        assertThat(e.get("error").isObject()).isTrue();
        assertThat(e.get("error").get("message").asText()).contains("NOPE");
        assertThat(e.get("error").get("kind").asText()).isEqualTo("not_found");
        assertThat(e.has("code")).isFalse();
        List<String> fields = new ArrayList<>();
        e.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("error", "exit");
        assertThat(missing.err()).contains("NOPE");

        Run text = cli("show", "--id", "nobody-1");
        assertThat(text.out()).as("without --json nothing on stdout").isEmpty();
    }

    /** Issue 12, minor: --help names the data directory the engine will really use ($XDG_DATA_HOME honoured). */
    @Test
    void helpShowsTheRealDefaultDataDirectory() {
        Run help = raw("--help");
        assertThat(help.code()).isEqualTo(ExitCode.OK.code());
        // Help wraps long lines anywhere, so compare without white space.
        assertThat(help.out().replaceAll("\\s+", "")).contains("(default:" + EngineConfig.defaultDataDir() + ")");
    }

    /** Issue 12, major 6: stats marks statuses whose Redis live counter differs from MySQL. */
    @Test
    void statsMarksStatusesWhereRedisAndMysqlDiffer() {
        s.orders().create(ops, "dr-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            raw.cmd().hincrby(com.orderconsole.redis.RedisKeys.stats(com.orderconsole.redis.RedisKeys.bucket("dr-1")), "n:1", 2);
        }
        JsonNode j = cli("stats", "--json").json();
        assertThat(j.get("statuses").get("WAIT_PAY").get("differ").asBoolean()).isTrue();
        assertThat(j.get("statuses").get("PAID").get("differ").asBoolean()).isFalse();
        assertThat(cli("stats").out()).containsPattern("WAIT_PAY\\s+3\\s+1\\s+\\S+\\s+≠ Redis and MySQL differ")
                .contains("'reconcile --repair' recounts them");
    }
}
