package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
@Command(name = "rules", subcommands = {RulesCommand.Show.class, RulesCommand.Validate.class, RulesCommand.Set.class})
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
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("cli.rules.unreadable", file, e.getMessage()), e);
        }
    }

    /** Prints the faults of an invalid document: each on stderr, and the document with --json. */
    static int invalid(CliCommand c, Path file, InvalidRulesException e) {
        c.err().println(Messages.format("cli.error", Messages.format("cli.rules.invalid", file)));
        e.faults().forEach(f -> c.err().println("  " + f));
        if (c.json()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("error", file + " is not valid: " + String.join("; ", e.faults())); // i18n-ok: --json is machine text
            doc.put("code", OrderCli.FAILED);
            doc.put("file", file.toString());
            doc.put("valid", false);
            doc.put("faults", e.faults());
            c.out().println(Cli.json(doc));
        }
        return OrderCli.FAILED;
    }

    /** Prints rules: the JSON document in both modes (it is what 'rules set' reads). */
    static void print(CliCommand c, TransitionRules rules) {
        c.out().println(RulesJson.write(rules));
    }

    @Command(name = "show")
    static final class Show extends CliCommand {
        @Override
        public Integer call() {
            try (Engine engine = engine()) {
                print(this, engine.services().rules().current());
                return OrderCli.OK;
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
            return OrderCli.OK;
        }
    }

    @Command(name = "set")
    static final class Set extends CliCommand {
        @Parameters(paramLabel = "FILE", descriptionKey = "cli.param.rules.file")
        Path file;

        @Override
        public Integer call() {
            String text = read(file);
            try (Engine engine = engine()) {
                Operator op = operator();
                TransitionRules rules;
                try {
                    rules = engine.services().rules().set(op, text);
                } catch (InvalidRulesException e) {
                    return invalid(this, file, e);
                }
                if (json()) {
                    print(this, rules);
                } else {
                    out().println(Messages.format("cli.rules.inForce", rules.version()));
                    print(this, rules);
                }
                return OrderCli.OK;
            }
        }
    }
}
