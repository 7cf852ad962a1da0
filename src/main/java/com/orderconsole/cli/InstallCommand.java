package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code install [--prefix DIR]}: for a {@code java -jar} user, who has no {@code order-console} command on PATH and so no
 * completion and no man pages: writes a launcher script {@code PREFIX/bin/order-console} that runs this jar with this
 * Java, the bash completion into {@code PREFIX/share/bash-completion/completions/order-console} (bash-completion loads it
 * on first TAB), and the roff man pages into {@code PREFIX/share/man/man1}. PREFIX defaults to {@code ~/.local}, which
 * Debian and most distributions already search for commands, completions and man pages. Starts no server.
 */
@Command(name = "install", resourceBundle = Messages.BUNDLE)
final class InstallCommand extends CliCommand {
    @Option(names = "--prefix", paramLabel = "DIR", descriptionKey = "cli.install.opt.prefix")
    Path prefix;

    @Override
    public Integer call() {
        Path root = (prefix != null ? prefix : Path.of(com.orderconsole.app.ConfigDir.home(), ".local")).toAbsolutePath();
        Path bin = root.resolve("bin");
        Path launcher = bin.resolve(CompletionCommand.PROGRAM);
        Path completion = root.resolve("share/bash-completion/completions").resolve(CompletionCommand.PROGRAM);
        Path man = root.resolve("share/man/man1");
        List<String> pages;
        try {
            Files.createDirectories(bin);
            Files.writeString(launcher, launcherScript(), StandardCharsets.UTF_8);
            if (!launcher.toFile().setExecutable(true, false)) {
                throw new IOException(Messages.format("cli.install.notExecutable", launcher));
            }
            Files.createDirectories(completion.getParent());
            Files.writeString(completion, AutoComplete.bash(CompletionCommand.PROGRAM, spec.root().commandLine()), StandardCharsets.UTF_8);
            pages = ManCommand.writeRoff(spec.root(), man);
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("cli.install.unwritable", root, e.getMessage()), e);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("launcher", launcher.toString());
        doc.put("completion", completion.toString());
        doc.put("manDir", man.toString());
        doc.put("manPages", pages);
        String path = System.getenv("PATH");
        boolean onPath = path != null && List.of(path.split(File.pathSeparator)).contains(bin.toString());
        doc.put("binOnPath", onPath);
        String text = Messages.format("cli.install.done", launcher, completion, pages.size(), man) + System.lineSeparator()
                + (onPath ? "" : Messages.format("cli.install.notOnPath", bin) + System.lineSeparator());
        emit(doc, text);
        return ExitCode.OK.code();
    }

    /**
     * @return a POSIX shell script running this program with the Java that runs it now: {@code -jar} for the jar, else
     *     (classes from a build directory) the class path and main class
     */
    static String launcherScript() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String run;
        Path jar = codeSource();
        if (jar != null && jar.toString().endsWith(".jar")) {
            run = quote(java) + " $ORDER_CONSOLE_JAVA_OPTS -jar " + quote(jar.toString());
        } else {
            run = quote(java) + " $ORDER_CONSOLE_JAVA_OPTS -cp " + quote(System.getProperty("java.class.path")) + " com.orderconsole.Launcher";
        }
        return "#!/bin/sh\n" // i18n-ok: shell script text
                + "# order-console launcher, written by 'order-console install'. ORDER_CONSOLE_JAVA_OPTS: extra JVM options, e.g. -Xmx4g\n" // i18n-ok: shell script text
                + "exec " + run + " \"$@\"\n";
    }

    private static Path codeSource() {
        try {
            return Path.of(InstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** @return the text in single quotes for sh, a quote inside it closed and reopened */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
