package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.Messages;
import com.orderconsole.app.diagram.RulesDiagram;
import com.orderconsole.app.RulesWords;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.monitor.StateCounts;
import com.orderconsole.app.diagram.GraphPainter;
import com.orderconsole.service.rules.RulesImpact;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code rules show|validate FILE|set FILE}: the transition rules as a JSON document. */
@Command(name = "rules", subcommands = {RulesCommand.Show.class, RulesCommand.Validate.class, RulesCommand.Set.class,
        RulesCommand.Export.class})
final class RulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), Messages.get("cli.rules.what"));
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UncheckedIOException(Messages.format("cli.rules.unreadable", file, Messages.get("cli.rules.noFile")), e);
        } catch (java.nio.charset.CharacterCodingException e) {
            // The JDK says only "Input length = 1": name what is wrong with the file instead.
            throw new UncheckedIOException(Messages.format("cli.rules.unreadable", file, Messages.get("cli.rules.notUtf8")), e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new UncheckedIOException(Messages.format("cli.rules.unreadable", file, Messages.get("cli.rules.denied")), e);
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("cli.rules.unreadable", file, Files.isDirectory(file)
                    ? Messages.get("cli.rules.isDirectory") : e.getMessage()), e);
        }
    }

    /** Prints the faults of an invalid document: each on stderr, and the document with --json. */
    static int invalid(CliCommand c, Path file, InvalidRulesException e) {
        List<String> words = e.details().stream().map(RulesWords::fault).toList();
        c.err().println(Messages.format("cli.error", Messages.format("cli.rules.invalid", file)));
        words.forEach(f -> c.err().println("  " + f));
        if (c.json()) {
            Map<String, Object> doc = OrderCli.errorDocument(file + " is not valid: " + String.join("; ", e.faults()), // i18n-ok: --json is machine text
                    ExitCode.FAILED, com.orderconsole.app.ErrorKind.INVALID_RULES.word());
            doc.put("file", file.toString());
            doc.put("valid", false);
            doc.put("faults", words);
            doc.put("faultsPlaced", e.details().stream().map(f -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("fault", f.key());
                one.put("text", Messages.format(f.key(), f.args().toArray()));
                one.put("line", f.placed() ? f.line() : null);
                one.put("column", f.placed() ? f.column() : null);
                return one;
            }).toList());
            c.out().println(Cli.json(doc));
        }
        return ExitCode.FAILED.code();
    }

    /** Prints rules: the JSON document in both modes (it is what 'rules set' reads). */
    static void print(CliCommand c, TransitionRules rules) {
        c.out().println(RulesJson.write(rules));
    }

    @Command(name = "show")
    static final class Show extends CliCommand {
        @Override
        public Integer call() {
            try (Session<ConsoleServices> session = session()) {
                print(this, session.services().rules().current());
                return ExitCode.OK.code();
            }
        }
    }

    @Command(name = "validate")
    static final class Validate extends CliCommand {
        @Parameters(paramLabel = "FILE", descriptionKey = "cli.param.rules.file")
        Path file;

        @Override
        public Integer call() {
            TransitionRules rules;
            try {
                rules = RulesJson.parse(read(file), 1);
            } catch (InvalidRulesException e) {
                return invalid(this, file, e);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("file", file.toString());
            doc.put("valid", true);
            doc.put("faults", List.of());
            long edges = rules.edges().values().stream().mapToLong(java.util.Set::size).sum();
            emit(doc, Messages.format("cli.rules.valid", file, edges, rules.terminal()) + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }

    @Command(name = "set")
    static final class Set extends CliCommand {
        @Parameters(paramLabel = "FILE", descriptionKey = "cli.param.rules.file")
        Path file;

        @Option(names = "--dry-run", descriptionKey = "cli.opt.rules.dry-run")
        boolean dryRun;

        @Override
        public Integer call() {
            String text = read(file);
            try (Session<ConsoleServices> session = session()) {
                if (dryRun) {
                    return dryRun(session.services(), text);
                }
                Operator op = operator();
                TransitionRules rules;
                try {
                    // Checked before the confirmation: an invalid document is refused as such, whatever --yes says.
                    session.services().rules().validate(text);
                    confirm(ProductionGuard.Action.RULES_CHANGE, 1, Messages.format("cli.rules.what", file));
                    rules = session.services().rules().set(op, text);
                } catch (InvalidRulesException e) {
                    return invalid(this, file, e);
                }
                if (json()) {
                    print(this, rules);
                } else {
                    out().println(Messages.format("cli.rules.inForce", rules.version()));
                    print(this, rules);
                }
                return ExitCode.OK.code();
            }
        }

        private int dryRun(ConsoleServices s, String text) {
            TransitionRules parsed;
            try {
                parsed = s.rules().validate(text);
            } catch (InvalidRulesException e) {
                return invalid(this, file, e);
            }
            TransitionRules now = s.rules().current();
            RulesImpact impact = s.rulesWhatIf().whatIf(text);
            List<String> changes = now.sameRules(parsed) ? List.of() : RulesWords.changes(now, parsed);
            List<String> effect = RulesWords.impact(impact);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("dryRun", true);
            doc.put("file", file.toString());
            doc.put("valid", true);
            doc.put("inForceVersion", now.version());
            doc.put("changes", changes);
            doc.put("stranded", impact.stranded());
            doc.put("stuckLosingAnExit", impact.stuckLosingAnExit());
            doc.put("timeoutCancelKept", impact.timeoutCancelKept());
            doc.put("waitPayLive", impact.waitPayLive());
            doc.put("waitPaySample", impact.waitPaySample());
            doc.put("statuses", impact.statuses().stream().map(st -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("status", st.status().name());
                one.put("exitsBefore", st.exitsBefore().stream().map(Enum::name).sorted().toList());
                one.put("exitsAfter", st.exitsAfter().stream().map(Enum::name).sorted().toList());
                one.put("removed", st.removed().stream().map(r -> Map.of("from", r.from().name(), "to", r.to().name(),
                        "appliedLastHour", r.appliedLastHour())).toList());
                one.put("live", st.live());
                one.put("stuck", st.stuck());
                one.put("losesEveryExit", st.losesEveryExit());
                one.put("sample", st.sample());
                return one;
            }).toList());
            doc.put("effect", effect);
            StringBuilder b = new StringBuilder();
            (changes.isEmpty() ? List.of(Messages.get("rules.whatif.none")) : changes).forEach(l -> b.append(l).append(System.lineSeparator()));
            b.append(Messages.get("rules.whatif.heading")).append(System.lineSeparator());
            effect.forEach(l -> b.append("  ").append(l).append(System.lineSeparator()));
            b.append(Messages.get("rules.whatif.dryRun")).append(System.lineSeparator());
            emit(doc, b.toString());
            return ExitCode.OK.code();
        }
    }

    @Command(name = "export")
    static final class Export extends CliCommand {
        @Option(names = "--format", required = true, paramLabel = "FORMAT", descriptionKey = "cli.opt.rules.format")
        String format;

        @Option(names = "--out", paramLabel = "FILE", descriptionKey = "cli.opt.rules.out")
        Path out;

        @Option(names = "--no-counts", descriptionKey = "cli.opt.rules.no-counts")
        boolean noCounts;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            RulesDiagram.Format f;
            try {
                f = RulesDiagram.Format.parse(format);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (f == RulesDiagram.Format.PNG && out == null) {
                throw new ParameterException(spec.commandLine(), Messages.get("diagram.pngNeedsOut"));
            }
            try (Session<ConsoleServices> session = session()) {
                TransitionRules rules = session.services().rules().current();
                RulesDiagram.Counts counts = null;
                if (!noCounts) {
                    StateCounts sc = session.services().monitor().stateCounts();
                    java.util.Map<OrderStatus, Long> stuck = new java.util.EnumMap<>(OrderStatus.class);
                    sc.stuck().forEach((st, n) -> {
                        if (!rules.isTerminal(st)) {
                            stuck.put(st, n);
                        }
                    });
                    counts = new RulesDiagram.Counts(sc.live(), stuck, session.services().monitor().transitionsLastHour());
                }
                byte[] bytes = switch (f) {
                    case PLANTUML -> RulesDiagram.plantUml(rules, counts).getBytes(StandardCharsets.UTF_8);
                    case MERMAID -> RulesDiagram.mermaid(rules, counts).getBytes(StandardCharsets.UTF_8);
                    case PNG -> GraphPainter.png(rules, counts, 2);
                };
                if (out == null) {
                    String text = new String(bytes, StandardCharsets.UTF_8);
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("format", f.name().toLowerCase(java.util.Locale.ROOT));
                    doc.put("version", rules.version());
                    doc.put("diagram", text);
                    emit(doc, text);
                    return ExitCode.OK.code();
                }
                try {
                    Files.write(out, bytes);
                } catch (IOException e) {
                    throw new UncheckedIOException(Messages.format("diagram.export.failed", out, e.getMessage()), e);
                }
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("format", f.name().toLowerCase(java.util.Locale.ROOT));
                doc.put("version", rules.version());
                doc.put("file", out.toString());
                doc.put("bytes", bytes.length);
                emit(doc, Messages.format("diagram.export.done", Long.toString(rules.version()), f.name(), out.toString())
                        + System.lineSeparator());
                return ExitCode.OK.code();
            }
        }
    }
}
