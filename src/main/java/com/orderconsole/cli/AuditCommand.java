package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.audit.AuditPage;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.audit.AuditSources;
import com.orderconsole.service.audit.MoveKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** {@code audit}: every recorded action across orders, newest first, filtered; a page at a time or exported. */
@Command(name = "audit", resourceBundle = Messages.BUNDLE)
final class AuditCommand extends CliCommand {
    @Option(names = "--actor", paramLabel = "NAME", descriptionKey = "audit.cli.opt.actor")
    String actor;

    @Option(names = "--source", paramLabel = "SOURCE", descriptionKey = "audit.cli.opt.source")
    String source;

    @Option(names = "--moves", paramLabel = "KIND", descriptionKey = "audit.cli.opt.moves")
    String moves;

    @Option(names = "--code", paramLabel = "N", descriptionKey = "audit.cli.opt.code")
    Integer code;

    @Option(names = "--from", paramLabel = "DATE", converter = Dates.Converter.class, descriptionKey = "audit.cli.opt.from")
    Long from;

    @Option(names = "--to", paramLabel = "DATE", converter = Dates.Converter.class, descriptionKey = "audit.cli.opt.to")
    Long to;

    @Option(names = "--prefix", paramLabel = "PREFIX", descriptionKey = "audit.cli.opt.prefix")
    String prefix;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", descriptionKey = "audit.cli.opt.limit")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR", descriptionKey = "audit.cli.opt.after")
    String after;

    @Option(names = "--export", paramLabel = "FILE", descriptionKey = "audit.cli.opt.export")
    Path export;

    @Override
    public Integer call() throws Exception {
        AuditFilter filter;
        try {
            MoveKind kind = moves == null ? MoveKind.ANY : switch (moves.toLowerCase(Locale.ROOT)) {
                case "any" -> MoveKind.ANY;
                case "legal" -> MoveKind.LEGAL;
                case "override" -> MoveKind.OVERRIDE;
                default -> throw new IllegalArgumentException(Messages.format("audit.cli.badMoves", moves));
            };
            ResultCode rc = code == null ? null : ResultCode.ofCode(code);
            // The view's words and their aliases ("repair" also finds the audit log's "reconciliation" rows); others refused.
            filter = new AuditFilter(actor, source == null ? null : AuditSources.require(source), kind, rc, from, to, prefix);
            if (limit < 1 || limit > 1000) {
                throw new IllegalArgumentException(Messages.format("audit.cli.badLimit", limit));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        // MySQL alone: the audit trail is the durable record, readable while Redis is down.
        try (Session<Audit> session = auditSession()) {
            Audit audit = session.services();
            if (export != null) {
                long n;
                if (export.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json")) {
                    try (OutputStream o = Files.newOutputStream(export)) {
                        n = audit.exportJson(filter, o, () -> false);
                    }
                } else {
                    try (Writer w = Files.newBufferedWriter(export, StandardCharsets.UTF_8)) {
                        n = audit.exportCsv(filter, w, () -> false);
                    }
                }
                emit(Map.of("exported", n, "file", export.toString()), Messages.format("audit.cli.exported", n, export) + System.lineSeparator());
                return ExitCode.OK.code();
            }
            AuditPage page = audit.page(filter, after, limit);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("rows", page.rows());
            doc.put("nextCursor", page.nextCursor());
            StringBuilder text = new StringBuilder();
            for (AuditEvent e : page.rows()) {
                text.append(line(e)).append(System.lineSeparator());
            }
            if (page.rows().isEmpty()) {
                text.append(Messages.get("audit.cli.none")).append(System.lineSeparator());
            }
            if (page.nextCursor() != null) {
                text.append(Messages.format("audit.cli.more", page.nextCursor())).append(System.lineSeparator());
            }
            emit(doc, text.toString());
            return ExitCode.OK.code();
        }
    }

    private static String line(AuditEvent e) {
        String what = e.kind() == AuditEvent.Kind.TRANSITION
                ? (e.from() == null ? "" : e.from().name() + " -> ") + (e.to() == null ? "" : e.to().name()) + " v" + e.version()
                        + " [" + e.code().code() + " " + e.code().description() + "]"
                : e.action() + (e.detail() == null || e.detail().isEmpty() ? "" : ": " + e.detail());
        return shown(String.format("%s  %-12s %-10s %-24s %s%s%s", Cli.time(e.atMs()), e.actor(), e.source(),
                e.orderId() == null ? "-" : e.orderId(), what, e.reason() == null || e.reason().isEmpty() ? "" : "  (" + e.reason() + ")",
                e.writtenBy() == null ? "" : "  " + Messages.format(e.actorUnlike() ? "audit.cli.writtenByUnlike" : "audit.cli.writtenBy",
                        e.writtenBy())));
    }

    /**
     * A row's line as printed: every control character (a NUL, a line break, an escape sequence a row holds, whoever
     * stored it) as {@code \}{@code uXXXX}, so one row is one line and nothing in it acts on the terminal.
     */
    static String shown(String line) {
        StringBuilder b = new StringBuilder(line.length());
        line.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
