package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code man}: the man pages, from the same command model as {@code --help} (options, descriptions in the language in
 * use, exit codes). Without {@code --out} the top page goes to stdout; with it, one page per command. By default in roff
 * ({@code order-console.1}, {@code order-console-bulk.1}, ...: {@code man -l} shows them, {@code install} puts them where
 * {@code man} looks); {@code --format asciidoc} writes picocli-codegen's {@link ManPageGenerator} AsciiDoc instead
 * ({@code .adoc}, for asciidoctor). Starts no server.
 */
@Command(name = "man", resourceBundle = Messages.BUNDLE)
final class ManCommand extends CliCommand {
    @Option(names = "--out", paramLabel = "DIR", descriptionKey = "cli.man.opt.out")
    Path outDir;

    /** The two forms a page can take. */
    enum Format { roff, asciidoc }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "roff", descriptionKey = "cli.man.opt.format")
    Format format;

    @Override
    public Integer call() {
        CommandSpec root = spec.root();
        if (format == Format.roff) {
            return roff(root);
        }
        if (outDir == null) {
            PrintWriter w = new PrintWriter(out(), true, StandardCharsets.UTF_8);
            ManPageGenerator.writeSingleManPage(w, root);
            w.flush();
            return ExitCode.OK.code();
        }
        List<String> pages;
        try {
            Files.createDirectories(outDir);
            // No templates directory; not verbose; overwrite pages from an earlier run. Subcommands get pages of their own.
            ManPageGenerator.generateManPage(outDir.toFile(), null, new boolean[0], true, root);
            try (Stream<Path> files = Files.list(outDir)) {
                pages = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith(CompletionCommand.PROGRAM) && n.endsWith(".adoc"))
                        .sorted().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("cli.man.unwritable", outDir, e.getMessage()), e);
        }
        emit(Map.of("dir", outDir.toString(), "pages", pages), Messages.format("cli.man.written", pages.size(), outDir) + System.lineSeparator());
        return ExitCode.OK.code();
    }

    private int roff(CommandSpec root) {
        if (outDir == null) {
            out().print(RoffManPage.page(root));
            out().flush();
            return ExitCode.OK.code();
        }
        List<String> pages = writeRoff(root, outDir);
        emit(Map.of("dir", outDir.toString(), "pages", pages), Messages.format("cli.man.written", pages.size(), outDir) + System.lineSeparator());
        return ExitCode.OK.code();
    }

    /**
     * Writes one roff page per command into a directory (created when missing).
     *
     * @return the file names written, top page first
     * @throws UncheckedIOException in words naming the directory, when it cannot be written
     */
    static List<String> writeRoff(CommandSpec root, Path dir) {
        List<String> pages = new java.util.ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (CommandSpec c : RoffManPage.all(root)) {
                String name = RoffManPage.fileName(c);
                Files.writeString(dir.resolve(name), RoffManPage.page(c), StandardCharsets.UTF_8);
                pages.add(name);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("cli.man.unwritable", dir, e.getMessage()), e);
        }
        return pages;
    }
}
