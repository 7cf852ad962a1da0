package com.orderconsole.cli;

import com.orderconsole.app.BuildInfo;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Man pages in roff ({@code man} reads them as they are), written from the same command model as {@code --help}: name,
 * synopsis, description, options, subcommands and exit codes, in the language in use. picocli-codegen's ManPageGenerator
 * writes AsciiDoc only, which needs asciidoctor before {@code man} can show it.
 */
final class RoffManPage {
    private RoffManPage() {
    }

    /** @return the page's file name, e.g. "order-console-rules-show.1" */
    static String fileName(CommandSpec spec) {
        return spec.qualifiedName("-") + ".1";
    }

    /** @return every command's spec, the top one first, then each subcommand (depth first); the built-in help left out */
    static List<CommandSpec> all(CommandSpec root) {
        List<CommandSpec> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(CommandSpec spec, List<CommandSpec> out) {
        out.add(spec);
        for (CommandLine sub : spec.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (!out.contains(s) && !(s.userObject() instanceof CommandLine.HelpCommand)) {
                collect(s, out);
            }
        }
    }

    /** @return the man page of one command, roff source */
    static String page(CommandSpec spec) {
        StringBuilder b = new StringBuilder();
        String title = spec.qualifiedName("-");
        b.append(".TH \"").append(title.toUpperCase(Locale.ROOT)).append("\" 1 \"\" \"order-console ")
                .append(escape(BuildInfo.version())).append("\" \"Order State Console\"\n"); // i18n-ok: roff requests and man section names
        b.append(".SH NAME\n").append(escape(title)).append(" \\- ").append(escape(firstLine(spec))).append('\n'); // i18n-ok: roff requests and man section names
        b.append(".SH SYNOPSIS\n.nf\n"); // i18n-ok: roff requests and man section names
        String synopsis = new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF)).synopsis(0)
                .strip();
        // The heading ("Usage:", "用法：") is the help's, not the page's: the synopsis starts at the program's name.
        int at = synopsis.indexOf(spec.root().name());
        synopsis = at > 0 ? synopsis.substring(at) : synopsis;
        for (String line : synopsis.split("\\R")) {
            b.append(text(line)).append('\n');
        }
        b.append(".fi\n"); // i18n-ok: roff requests and man section names
        String[] description = spec.usageMessage().description();
        if (description.length > 0) {
            b.append(".SH DESCRIPTION\n"); // i18n-ok: roff requests and man section names
            for (String line : description) {
                b.append(text(line)).append('\n');
            }
        }
        List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
        if (!options.isEmpty()) {
            b.append(".SH OPTIONS\n"); // i18n-ok: roff requests and man section names
            for (OptionSpec o : options) {
                b.append(".TP\n.B ").append(escape(String.join(", ", o.names()))); // i18n-ok: roff requests and man section names
                if (o.arity().max() > 0) {
                    b.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
                }
                b.append('\n');
                for (String line : o.description()) {
                    b.append(text(line)).append('\n');
                }
            }
        }
        List<CommandSpec> subs = spec.subcommands().values().stream().map(CommandLine::getCommandSpec).distinct()
                .filter(s -> !(s.userObject() instanceof CommandLine.HelpCommand)).toList();
        if (!subs.isEmpty()) {
            b.append(".SH COMMANDS\n"); // i18n-ok: roff requests and man section names
            for (CommandSpec s : subs) {
                b.append(".TP\n.B ").append(escape(s.name())).append('\n').append(text(firstLine(s))).append('\n'); // i18n-ok: roff requests and man section names
            }
        }
        Map<String, String> exits = spec.usageMessage().exitCodeList();
        if (!exits.isEmpty()) {
            b.append(".SH \"EXIT STATUS\"\n"); // i18n-ok: roff requests and man section names
            exits.forEach((code, words) -> b.append(".TP\n.B ").append(escape(code.strip())).append('\n').append(text(words)).append('\n')); // i18n-ok: roff requests and man section names
        }
        b.append(".SH \"SEE ALSO\"\n"); // i18n-ok: roff requests and man section names
        List<String> see = new ArrayList<>();
        if (spec.parent() != null) {
            see.add("\\fB" + escape(spec.parent().qualifiedName("-")) + "\\fR(1)");
        }
        subs.forEach(s -> see.add("\\fB" + escape(s.qualifiedName("-")) + "\\fR(1)"));
        b.append(see.isEmpty() ? "order\\-console \\-\\-help" : String.join(", ", see)).append('\n');
        return b.toString();
    }

    private static String firstLine(CommandSpec spec) {
        String[] d = spec.usageMessage().description();
        return d.length == 0 ? spec.name() : d[0].split("\\R")[0].replaceAll("%n", " ").strip();
    }

    /** A line of running text: escaped, and a line that roff would take for a request protected. */
    private static String text(String line) {
        String t = escape(line.replace("%n", "\n").strip());
        StringBuilder b = new StringBuilder();
        for (String l : t.split("\n", -1)) {
            if (b.length() > 0) {
                b.append('\n');
            }
            b.append(l.isEmpty() ? ".br" : (l.startsWith(".") || l.startsWith("'") ? "\\&" + l : l));
        }
        return b.toString();
    }

    /** Backslashes and hyphens as roff wants them (a plain '-' may be set as a hyphen, not the minus of an option). */
    static String escape(String s) {
        return s.replace("\\", "\\e").replace("-", "\\-");
    }
}
