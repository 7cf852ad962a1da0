package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkProgress;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.bulk.TargetCount;
import com.orderconsole.service.order.OrderQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bulk}: one target status for many orders, chosen by filter or by id; a preview first (--dry-run stops
 * there), then each order through the transition script with compare-and-set on the version the preview saw.
 * {@code --list} shows recent batches, {@code --batch ID} one batch's results (exportable), {@code --close ID} closes a
 * batch whose process died (ops).
 */
@Command(name = "bulk", resourceBundle = Messages.BUNDLE)
final class BulkCommand extends CliCommand {
    @Option(names = "--status", paramLabel = "STATUS", converter = Converters.StatusConverter.class, descriptionKey = "bulk.cli.opt.status")
    List<OrderStatus> statuses;

    @Option(names = "--created-from", paramLabel = "DATE", converter = Dates.Converter.class, descriptionKey = "bulk.cli.opt.createdFrom")
    Long createdFrom;

    @Option(names = "--created-before", paramLabel = "DATE", converter = Dates.Converter.class, descriptionKey = "bulk.cli.opt.createdBefore")
    Long createdBefore;

    @Option(names = "--prefix", paramLabel = "PREFIX", descriptionKey = "bulk.cli.opt.prefix")
    String prefix;

    @Option(names = "--id", paramLabel = "ID", converter = Converters.OrderIdConverter.class, descriptionKey = "bulk.cli.opt.id")
    List<String> ids;

    @Option(names = "--to", paramLabel = "STATUS", converter = Converters.StatusConverter.class, descriptionKey = "bulk.cli.opt.to")
    OrderStatus to;

    @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "bulk.cli.opt.reason")
    String reason;

    @Option(names = "--dry-run", descriptionKey = "bulk.cli.opt.dryRun")
    boolean dryRun;

    @Option(names = "--override", descriptionKey = "bulk.cli.opt.override")
    boolean override;

    @Option(names = "--list", descriptionKey = "bulk.cli.opt.list")
    boolean list;

    @Option(names = "--batch", paramLabel = "ID", converter = Converters.PositiveLongConverter.class, descriptionKey = "bulk.cli.opt.batch")
    Long batch;

    @Option(names = "--export", paramLabel = "FILE", descriptionKey = "bulk.cli.opt.export")
    Path export;

    @Option(names = "--close", paramLabel = "ID", converter = Converters.PositiveLongConverter.class, descriptionKey = "bulk.cli.opt.close")
    Long close;

    @Override
    public Integer call() throws Exception {
        if (close != null) {
            try (Session<ConsoleServices> session = session()) {
                BulkBatch b = session.services().bulk().close(operator(), close, TransitionCommand.SOURCE);
                emit(Map.of("batch", b), Messages.format("bulk.cli.closed", b.id()) + System.lineSeparator() + batchText(b));
                return ExitCode.OK.code();
            }
        }
        if (list || batch != null) {
            return show();
        }
        if (to == null) {
            throw new ParameterException(spec.commandLine(), Messages.get("bulk.cli.needTo"));
        }
        boolean byFilter = statuses != null || createdFrom != null || createdBefore != null || prefix != null;
        if (byFilter == (ids != null)) {
            throw new ParameterException(spec.commandLine(), Messages.get("bulk.cli.needScope"));
        }
        if (!dryRun && (reason == null || reason.isBlank())) {
            throw new ParameterException(spec.commandLine(), Messages.get("bulk.cli.needReason"));
        }
        BulkScope scope;
        try {
            scope = ids != null ? BulkScope.of(ids) : BulkScope.of(new OrderQuery(null, prefix,
                    statuses == null ? Set.of() : new LinkedHashSet<>(statuses), false, createdFrom, createdBefore, false, false));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try (Session<ConsoleServices> session = session()) {
            ConsoleServices s = session.services();
            BulkPreview p = s.bulk().preview(scope, to, override, progress("bulk.cli.progress.preview"), () -> false);
            endProgress();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("preview", previewDoc(p));
            StringBuilder text = new StringBuilder(previewText(p));
            if (dryRun) {
                emit(doc, text.toString());
                return ExitCode.OK.code();
            }
            if (p.wouldApply() == 0) {
                // Nothing would move: no batch, no rejection rows, nothing for the rejection-rate alert to count.
                text.append(Messages.format("bulk.cli.nothing", p.matched(), p.target().name())).append(System.lineSeparator());
                doc.put("batch", null);
                emit(doc, text.toString());
                return ExitCode.OK.code();
            }
            s.bulk().check(operator(), p, reason);
            confirm(override ? ProductionGuard.Action.OVERRIDE : ProductionGuard.Action.BULK, p.matched(),
                    Messages.format("bulk.cli.what", p.matched(), p.target().name()));
            BulkBatch b = s.bulk().apply(operator(), p, reason, TransitionCommand.SOURCE, progress("bulk.cli.progress.apply"), () -> false);
            endProgress();
            boolean synced = catchUpMySql(s);
            doc.put("batch", b);
            doc.put("mysqlSynced", synced);
            text.append(batchText(b));
            emit(doc, text.toString());
            return b.state() == BulkBatch.State.DONE ? ExitCode.OK.code() : ExitCode.FAILED.code();
        }
    }

    private int show() throws Exception {
        try (Session<ConsoleServices> session = session()) {
            Bulk bulk = session.services().bulk();
            if (batch == null) {
                List<BulkBatch> all = bulk.batches(null, 50);
                StringBuilder text = new StringBuilder(all.isEmpty() ? Messages.get("bulk.cli.noBatches") + System.lineSeparator() : "");
                all.forEach(b -> text.append(batchText(b)));
                emit(Map.of("batches", all), text.toString());
                return ExitCode.OK.code();
            }
            BulkBatch b = bulk.batch(batch);
            if (export != null) {
                long n;
                if (export.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json")) {
                    try (OutputStream o = Files.newOutputStream(export)) {
                        n = bulk.exportJson(batch, o);
                    }
                } else {
                    try (Writer w = Files.newBufferedWriter(export, StandardCharsets.UTF_8)) {
                        n = bulk.exportCsv(batch, w);
                    }
                }
                emit(Map.of("batch", b, "exported", n, "file", export.toString()),
                        Messages.format("bulk.cli.exported", n, export) + System.lineSeparator());
                return ExitCode.OK.code();
            }
            List<BulkItem> items = bulk.items(batch, null, null, 1000);
            StringBuilder text = new StringBuilder(batchText(b));
            for (BulkItem i : items) {
                // An item a close wrote has both a code and how its outcome was found; show both.
                String result = i.code() == null ? i.error() : i.code().code() + " " + i.code().description()
                        + (i.error().isEmpty() ? "" : "; " + i.error());
                text.append(String.format("  %-40s %-9s %s%n", i.orderId(), i.outcome(), result));
            }
            if (items.size() == 1000) {
                text.append(Messages.get("bulk.cli.firstThousand")).append(System.lineSeparator());
            }
            emit(Map.of("batch", b, "items", items), text.toString());
            return ExitCode.OK.code();
        }
    }

    /** Progress on stderr for a person at a terminal only (never with --json or when stderr is redirected). */
    private BulkProgress progress(String key) {
        return progress(BulkProgress.NONE, line -> (done, total, counts) -> line.draw(total >= 0 && done >= total,
                () -> Messages.format(key, done, total < 0 ? "?" : Integer.toString(total))));
    }

    private static Map<String, Object> previewDoc(BulkPreview p) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("scope", p.scope().describe());
        d.put("target", p.target());
        d.put("override", p.override());
        d.put("rulesVersion", p.rulesVersion());
        d.put("matched", p.matched());
        d.put("wouldApply", p.wouldApply());
        Map<String, Integer> rejects = new LinkedHashMap<>();
        p.wouldReject().forEach((c, n) -> rejects.put(Integer.toString(c.code()), n));
        d.put("wouldReject", rejects);
        d.put("perTarget", p.perTarget());
        d.put("sample", p.sample());
        d.put("unknownIds", p.unknownIds());
        return d;
    }

    private static String previewText(BulkPreview p) {
        StringBuilder b = new StringBuilder();
        String nl = System.lineSeparator();
        b.append(Messages.format("bulk.cli.preview", p.matched(), p.target().name(), p.wouldApply(), p.wouldRejectTotal(),
                p.rulesVersion())).append(nl);
        for (Map.Entry<ResultCode, Integer> e : p.wouldReject().entrySet()) {
            b.append(Messages.format("bulk.cli.rejectLine", e.getValue(), e.getKey().code(), e.getKey().description())).append(nl);
        }
        for (TargetCount t : p.perTarget()) {
            b.append(Messages.format("bulk.cli.targetLine", t.target().name(), t.wouldApply(), t.wouldReject())).append(nl);
        }
        if (!p.sample().isEmpty()) {
            b.append(Messages.format("bulk.cli.sample", String.join(", ", p.sample()))).append(nl);
        }
        if (!p.unknownIds().isEmpty()) {
            b.append(Messages.format("bulk.cli.unknown", String.join(", ", p.unknownIds()))).append(nl);
        }
        return b.toString();
    }

    private static String batchText(BulkBatch b) {
        return Messages.format("bulk.cli.batch", b.id(), b.state().name(), b.actor(), Cli.time(b.startedAtMs()), b.target().name(),
                b.matched(), b.counts().applied(), b.counts().rejected(), b.counts().conflicts(), b.counts().failed(), b.notRun(),
                b.reason(), b.scope()) + System.lineSeparator();
    }
}
