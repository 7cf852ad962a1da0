package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.Reconciliation;
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
        try (Session<ConsoleServices> session = session()) {
            ConsoleServices s = session.services();
            Reconciliation recon = s.reconciliation();
            ReconReport before = recon.run(null, progress(), () -> false);
            endProgress();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("before", before);
            StringBuilder text = new StringBuilder(describe(Messages.format("cli.reconcile.compared", before.ordersCompared()), before));
            ReconReport last = before;
            if (repair && dryRun) {
                doc.put("plan", plan(recon, before, text));
            } else if (repair) {
                List<RepairResult> repairs = repairAll(recon, before, text);
                doc.put("mysqlSynced", catchUpMySql(s));
                doc.put("repairs", repairs);
                last = recon.run(null, progress(), () -> false);
                endProgress();
                doc.put("after", last);
                text.append(describe(Messages.get("cli.reconcile.after"), last));
            }
            emit(doc, text.toString());
            return exit(last);
        }
    }

    /** A dry run: per category with findings, the steps a repair would take (changes nothing). */
    private Map<String, Object> plan(Reconciliation recon, ReconReport before, StringBuilder text) {
        Map<String, Object> plans = new LinkedHashMap<>();
        for (ReconCategory c : ReconCategory.values()) {
            List<Reconciliation.RepairStep> steps = recon.plan(before, c);
            if (!steps.isEmpty()) {
                plans.put(c.name(), steps);
                text.append(Messages.format("cli.reconcile.wouldRepair", label(c))).append(System.lineSeparator());
                steps.stream().limit(LISTED).forEach(st -> text.append(String.format("    %s%s -> %s%n",
                        st.orderId().isEmpty() ? "" : st.orderId() + ": ", st.direction(), st.resulting())));
            }
        }
        return plans;
    }

    /**
     * Repairs every category this account may repair, after one confirmation of the count acted on; the outbox first,
     * since a pending outbox explains most status mismatches and applying it fixes them.
     */
    private List<RepairResult> repairAll(Reconciliation recon, ReconReport before, StringBuilder text) {
        Operator op = operator();
        List<ReconCategory> order = new ArrayList<>(List.of(ReconCategory.SYNC_PENDING));
        for (ReconCategory c : ReconCategory.values()) {
            if (c != ReconCategory.SYNC_PENDING) {
                order.add(c);
            }
        }
        long acting = 0;
        for (ReconCategory c : order) {
            if (c.mayRepair(op.role(), reason)) {
                acting += before.counts().get(c);
            }
        }
        if (acting > 0) {
            confirm(ProductionGuard.Action.REPAIR, acting, Messages.format("cli.reconcile.what", acting));
        }
        List<RepairResult> results = new ArrayList<>();
        for (ReconCategory c : order) {
            // A category this account may not repair, or not without a reason, is reported, not refused: the others go on.
            if (before.counts().get(c) > 0 && op.role().includes(Role.OPS) && !c.mayRepair(op.role(), reason)) {
                text.append(Messages.format("cli.reconcile.notRepaired", label(c), before.counts().get(c))).append(System.lineSeparator());
                continue;
            }
            // Called for empty categories too: the service's role check then refuses --repair to a
            // support user even when there is nothing to repair.
            RepairResult r = recon.repair(op, before, c, reason == null ? "" : reason, progress(), () -> false);
            endProgress();
            if (before.counts().get(c) > 0) {
                results.add(r);
                text.append(Messages.format("cli.reconcile.repaired", label(c), r.repaired(), r.attempted(),
                        r.failed() > 0 ? Messages.format("cli.reconcile.failed", r.failed(), String.join("; ", r.errors())) : ""))
                        .append(System.lineSeparator());
            }
        }
        return results;
    }

    /**
     * @return {@link ExitCode#DRIFT} when the report holds a disagreement; lag alone (MySQL sync pending, which the
     *     follower applies) is none
     */
    static int exit(ReconReport r) {
        for (ReconCategory c : ReconCategory.values()) {
            if (c != ReconCategory.SYNC_PENDING && r.counts().get(c) > 0) {
                return ExitCode.DRIFT.code();
            }
        }
        return ExitCode.OK.code();
    }

    /** Progress on stderr for a person at a terminal only (never with --json or when stderr is redirected). */
    private ReconProgress progress() {
        // Padded: the next phase's line may be shorter than the one it is drawn over.
        return progress(ReconProgress.NONE, line -> (phase, done, total) -> line.draw(done >= total,
                () -> Messages.format("cli.reconcile.progress", phase, done, total) + "   "));
    }

    /** @return a category's name in the language in use */
    private static String label(ReconCategory c) {
        return Messages.get(c.wordsKey());
    }

    private static String describe(String title, ReconReport r) {
        StringBuilder b = new StringBuilder(Messages.format("cli.reconcile.total", title, r.total())).append(System.lineSeparator());
        for (ReconCategory c : ReconCategory.values()) {
            long n = r.counts().get(c);
            if (n == 0) {
                continue;
            }
            b.append(String.format("  %-40s %d%n", label(c), n));
            r.findings(c).stream().limit(LISTED).forEach(f -> b.append("    ")
                    .append(f.orderId().isEmpty() ? "" : f.orderId() + ": ")
                    .append(Messages.format("recon.detail." + f.detailKey().name(), f.detailArgs().toArray())).append(System.lineSeparator()));
            if (r.findings(c).size() > LISTED) {
                b.append("    ").append(Messages.get("cli.reconcile.more")).append(System.lineSeparator());
            }
        }
        return b.toString();
    }
}
