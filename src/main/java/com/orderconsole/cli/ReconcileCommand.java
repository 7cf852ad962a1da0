package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Services;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.ReconciliationService;
import com.orderconsole.service.recon.RepairResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code reconcile [--repair]}: compares Redis with MySQL, and repairs what it finds on request. */
@Command(name = "reconcile")
final class ReconcileCommand extends CliCommand {
    /** Findings listed per category in text output (all of them are in --json output, up to the service's cap). */
    private static final int LISTED = 20;

    @Option(names = "--repair", descriptionKey = "cli.opt.repair")
    boolean repair;

    @Option(names = "--dry-run", descriptionKey = "cli.opt.dry-run")
    boolean dryRun;

    @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "cli.opt.reason.repair")
    String reason;

    @Override
    public Integer call() {
        try (Engine engine = engine()) {
            Operator op = operator();
            Services s = engine.services();
            ReconciliationService recon = s.reconciliation();
            ReconReport before = recon.run(null, ReconProgress.NONE, () -> false);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("before", before);
            StringBuilder text = new StringBuilder(describe("Compared " + before.ordersCompared() + " orders", before));
            if (repair && dryRun) {
                Map<String, Object> plans = new LinkedHashMap<>();
                for (ReconCategory c : ReconCategory.values()) {
                    List<ReconciliationService.RepairStep> steps = recon.plan(before, c);
                    if (!steps.isEmpty()) {
                        plans.put(c.name(), steps);
                        text.append(String.format("Would repair %s:%n", c.label()));
                        steps.stream().limit(LISTED).forEach(st -> text.append(String.format("    %s%s -> %s%n",
                                st.orderId().isEmpty() ? "" : st.orderId() + ": ", st.direction(), st.resulting())));
                    }
                }
                doc.put("plan", plans);
            } else if (repair) {
                List<RepairResult> results = new ArrayList<>();
                // Sync first: a pending outbox explains most status mismatches, and applying it fixes them.
                List<ReconCategory> order = new ArrayList<>(List.of(ReconCategory.SYNC_PENDING));
                for (ReconCategory c : ReconCategory.values()) {
                    if (c != ReconCategory.SYNC_PENDING) {
                        order.add(c);
                    }
                }
                for (ReconCategory c : order) {
                    if (c == ReconCategory.MISSING_IN_MYSQL && before.counts().get(c) > 0
                            && (reason == null || reason.isBlank() || !op.role().includes(Role.ADMIN))) {
                        text.append(String.format("Not repaired %s (%d): copying a Redis state into MySQL is an admin "
                                + "override; repeat with --role admin --reason TEXT%n", c.label(), before.counts().get(c)));
                        continue;
                    }
                    // Called for empty categories too: the service's role check then refuses --repair to a
                    // support user even when there is nothing to repair.
                    RepairResult r = recon.repair(op, before, c, reason == null ? "" : reason, ReconProgress.NONE, () -> false);
                    if (before.counts().get(c) > 0) {
                        results.add(r);
                        text.append(String.format("Repaired %s: %d of %d%s%n", c.label(), r.repaired(), r.attempted(),
                                r.failed() > 0 ? ", " + r.failed() + " failed: " + String.join("; ", r.errors()) : ""));
                    }
                }
                doc.put("mysqlSynced", catchUpMySql(s));
                ReconReport after = recon.run(null, ReconProgress.NONE, () -> false);
                doc.put("repairs", results);
                doc.put("after", after);
                text.append(describe("After repair", after));
            }
            emit(doc, text.toString());
            return OrderCli.OK;
        }
    }

    private static String describe(String title, ReconReport r) {
        StringBuilder b = new StringBuilder(String.format("%s: %d disagreement%s.%n", title, r.total(), r.total() == 1 ? "" : "s"));
        for (ReconCategory c : ReconCategory.values()) {
            long n = r.counts().get(c);
            if (n == 0) {
                continue;
            }
            b.append(String.format("  %-40s %d%n", c.label(), n));
            r.findings(c).stream().limit(LISTED).forEach(f -> b.append("    ")
                    .append(f.orderId().isEmpty() ? "" : f.orderId() + ": ").append(f.detail()).append(System.lineSeparator()));
            if (r.findings(c).size() > LISTED) {
                b.append("    ... (all of them with --json)").append(System.lineSeparator());
            }
        }
        return b.toString();
    }
}
