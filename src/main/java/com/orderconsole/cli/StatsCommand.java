package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.monitor.Health;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.service.monitor.RedisMaster;
import com.orderconsole.service.monitor.StateCounts;
import picocli.CommandLine.Command;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code stats}: orders per status, transition outcomes per result code, sync lag and health. */
@Command(name = "stats")
final class StatsCommand extends CliCommand {
    /** The narrowest the status column and a figure's column are, whatever the language's headers. */
    private static final int STATUS_COLUMNS = 10;
    private static final int FIGURE_COLUMNS = 10;

    @Override
    public Integer call() {
        try (Session<ConsoleServices> session = session()) {
            ConsoleServices s = session.services();
            Monitor m = s.monitor();
            StateCounts live = m.stateCounts();
            Map<OrderStatus, Long> mysql = m.mysqlCounts();
            Map<ResultCode, Long> results = m.resultCounts();
            FollowerStatus sync = s.mysqlSync().status();
            Health health = s.health().check();
            long deadLetters = s.deadLetters().countOpen();
            StringBuilder text = new StringBuilder();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("statuses", statuses(live, mysql, text));
            doc.put("results", results(results, text));
            health(sync, health, deadLetters, text);
            doc.put("sync", sync);
            doc.put("health", health);
            doc.put("deadLetters", deadLetters);
            emit(doc, text.toString());
            return ExitCode.OK.code();
        }
    }

    /** The per-status table: live count in Redis, rows in MySQL, stuck; marks where the two stores differ. */
    private static Map<String, Object> statuses(StateCounts live, Map<OrderStatus, Long> mysql, StringBuilder text) {
        Map<String, Object> statuses = new LinkedHashMap<>();
        String[] header = {Messages.get("cli.stats.status"), Messages.get("cli.stats.redis"), Messages.get("cli.stats.mysql"),
                Messages.get("cli.stats.stuck")};
        int first = Math.max(STATUS_COLUMNS, TextColumns.width(header[0]));
        int figure = Math.max(FIGURE_COLUMNS, Arrays.stream(header).skip(1).mapToInt(TextColumns::width).max().orElse(0));
        String nl = System.lineSeparator();
        text.append(TextColumns.left(header[0], first));
        for (int i = 1; i < header.length; i++) {
            text.append(' ').append(TextColumns.right(header[i], figure));
        }
        text.append(nl);
        boolean anyDiffer = false;
        for (OrderStatus st : OrderStatus.values()) {
            Long stuck = live.stuck().get(st);
            // Redis's counts are live counters kept by each transition; they can drift from the orders.
            boolean differ = !live.live().get(st).equals(mysql.get(st));
            anyDiffer |= differ;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("code", st.code());
            row.put("redis", live.live().get(st));
            row.put("mysql", mysql.get(st));
            row.put("differ", differ);
            row.put("stuck", stuck);
            statuses.put(st.name(), row);
            text.append(TextColumns.left(st.name(), first)).append(' ')
                    .append(TextColumns.right(String.valueOf(live.live().get(st)), figure)).append(' ')
                    .append(TextColumns.right(String.valueOf(mysql.get(st)), figure)).append(' ')
                    .append(TextColumns.right(stuck == null ? "-" : String.valueOf(stuck), figure))
                    .append(differ ? Messages.get("cli.stats.differ") : "").append(nl);
        }
        if (anyDiffer) {
            text.append(String.format("%s%n%s%n", Messages.get("cli.stats.differ.note"), Messages.get("cli.stats.differ.fix")));
        }
        return statuses;
    }

    /** The result codes counted in Redis, every code with its count. */
    private static Map<String, Object> results(Map<ResultCode, Long> results, StringBuilder text) {
        String nl = System.lineSeparator();
        Map<String, Object> codes = new LinkedHashMap<>();
        text.append(nl).append(Messages.get("cli.stats.results")).append(nl);
        int labels = Arrays.stream(ResultCode.values()).mapToInt(c -> TextColumns.width(Messages.get("result." + c.name())))
                .max().orElse(0);
        for (ResultCode c : ResultCode.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("code", c.code());
            row.put("count", results.get(c));
            row.put("description", c.description());
            codes.put(c.name(), row);
            text.append(String.format("  %3d ", c.code())).append(TextColumns.left(Messages.get("result." + c.name()), labels))
                    .append(' ').append(TextColumns.right(String.valueOf(results.get(c)), FIGURE_COLUMNS)).append(nl);
        }
        return codes;
    }

    /** The follower's backlog, both stores' health, the Redis masters, warnings and open dead letters, in words. */
    private static void health(FollowerStatus sync, Health health, long deadLetters, StringBuilder text) {
        String nl = System.lineSeparator();
        text.append(nl).append(sync.oldestPendingAgeMs() == null ? Messages.format("cli.stats.sync", sync.pending())
                : Messages.format("cli.stats.sync.oldest", sync.pending(), sync.oldestPendingAgeMs() / 1000)).append(nl);
        text.append(Messages.format("cli.stats.health", Messages.get(health.redisUp() ? "cli.stats.up" : "cli.stats.down"),
                Messages.get(health.mysqlUp() ? "cli.stats.up" : "cli.stats.down"),
                health.rulesVersion() == null ? "?" : health.rulesVersion())).append(nl);
        if (!health.masters().isEmpty()) {
            text.append(Messages.format("cli.stats.masters", health.masters().size(),
                    health.masters().stream().mapToInt(RedisMaster::buckets).sum(),
                    health.maxOverMean())).append(nl);
            health.masters().forEach(rm -> text.append(Messages.format("cli.stats.master", rm.where(),
                    rm.buckets(), rm.share())).append(nl));
        }
        health.notices().forEach(n -> text.append(Messages.format("cli.stats.warning",
                Messages.format("health." + n.key(), n.args().toArray()))).append(nl));
        if (deadLetters > 0) {
            text.append(Messages.format("cli.stats.deadLetters", deadLetters)).append(nl);
        }
    }
}
