package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.Services;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.monitor.Health;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.monitor.StateCounts;
import picocli.CommandLine.Command;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code stats}: orders per status, transition outcomes per result code, sync lag and health. */
@Command(name = "stats")
final class StatsCommand extends CliCommand {
    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            Services s = engine.services();
            MonitorService m = s.monitor();
            StateCounts live = m.stateCounts();
            Map<OrderStatus, Long> mysql = m.mysqlCounts();
            Map<ResultCode, Long> results = m.resultCounts();
            FollowerStatus sync = s.follower().status();
            Health health = s.health().check();
            long deadLetters = s.deadLetters().countOpen();

            Map<String, Object> statuses = new LinkedHashMap<>();
            StringBuilder text = new StringBuilder(String.format("%-10s %10s %10s %10s%n", Messages.get("cli.stats.status"),
                    Messages.get("cli.stats.redis"), Messages.get("cli.stats.mysql"), Messages.get("cli.stats.stuck")));
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
                text.append(String.format("%-10s %10d %10d %10s%s%n", st, live.live().get(st), mysql.get(st),
                        stuck == null ? "-" : stuck, differ ? Messages.get("cli.stats.differ") : ""));
            }
            if (anyDiffer) {
                text.append(String.format("%s%n%s%n", Messages.get("cli.stats.differ.note"), Messages.get("cli.stats.differ.fix")));
            }
            Map<String, Object> codes = new LinkedHashMap<>();
            text.append(System.lineSeparator()).append(Messages.get("cli.stats.results")).append(System.lineSeparator());
            for (ResultCode c : ResultCode.values()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("code", c.code());
                row.put("count", results.get(c));
                row.put("description", c.description());
                codes.put(c.name(), row);
                text.append(String.format("  %3d %-52s %10d%n", c.code(), Messages.get("result." + c.name()), results.get(c)));
            }
            String nl = System.lineSeparator();
            text.append(nl).append(sync.oldestPendingAgeMs() == null ? Messages.format("cli.stats.sync", sync.pending())
                    : Messages.format("cli.stats.sync.oldest", sync.pending(), sync.oldestPendingAgeMs() / 1000)).append(nl);
            text.append(Messages.format("cli.stats.health", Messages.get(health.redisUp() ? "cli.stats.up" : "cli.stats.down"),
                    Messages.get(health.mysqlUp() ? "cli.stats.up" : "cli.stats.down"),
                    health.rulesVersion() == null ? "?" : health.rulesVersion())).append(nl);
            if (!health.masters().isEmpty()) {
                text.append(Messages.format("cli.stats.masters", health.masters().size(),
                        health.masters().stream().mapToInt(com.orderconsole.service.monitor.RedisMaster::buckets).sum(),
                        health.maxOverMean())).append(nl);
                health.masters().forEach(rm -> text.append(Messages.format("cli.stats.master", rm.where(),
                        rm.buckets(), rm.share())).append(nl));
            }
            health.notices().forEach(n -> text.append(Messages.format("cli.stats.warning",
                    Messages.format("health." + n.key(), n.args().toArray()))).append(nl));
            if (deadLetters > 0) {
                text.append(Messages.format("cli.stats.deadLetters", deadLetters)).append(System.lineSeparator());
            }

            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("statuses", statuses);
            doc.put("results", codes);
            doc.put("sync", sync);
            doc.put("health", health);
            doc.put("deadLetters", deadLetters);
            emit(doc, text.toString());
            return OrderCli.OK;
        }
    }
}
