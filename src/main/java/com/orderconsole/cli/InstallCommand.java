package com.orderconsole.cli;

import com.orderconsole.app.ClassDataArchive;
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
 *
 * <p>Run from the jar, it also makes a class-data archive of the classes a one-shot command loads
 * ({@link ClassDataArchive}) in {@code PREFIX/lib/order-console}, which the launcher hands to the JVM.
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
        Path jar = codeSource();
        Path archive = jar != null && jar.toString().endsWith(".jar") ? root.resolve("lib/order-console/order-console.jsa") : null;
        List<String> pages;
        try {
            Files.createDirectories(bin);
            Files.writeString(launcher, launcherScript(javaCommand(), runTarget(jar), archive), StandardCharsets.UTF_8);
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
        String archiveWords = "";
        if (archive != null) {
            String failed = ClassDataArchive.write(Path.of(javaCommand()), jar, archive);
            doc.put("classDataArchive", failed == null ? archive.toString() : null);
            archiveWords = (failed == null ? Messages.format("cli.install.archive", archive)
                    : Messages.format("cli.install.noArchive", failed)) + System.lineSeparator();
        }
        String path = System.getenv("PATH");
        boolean onPath = path != null && List.of(path.split(File.pathSeparator)).contains(bin.toString());
        doc.put("binOnPath", onPath);
        String text = Messages.format("cli.install.done", launcher, completion, pages.size(), man) + System.lineSeparator()
                + archiveWords + (onPath ? "" : Messages.format("cli.install.notOnPath", bin) + System.lineSeparator());
        emit(doc, text);
        return ExitCode.OK.code();
    }

    /** The commands that run for long or over much data: they keep the JVM's default compilers and collector. */
    static final List<String> LONG_RUNNING = List.of("serve", "traffic", "import", "reconcile", "bulk", "follower", "sweep");
    /** One-shot commands: the quick compiler and the serial collector start them sooner and spend less CPU. */
    static final List<String> ONE_SHOT = List.of("create", "transition", "show", "stats", "rules", "dead-letters", "queue",
            "audit", "api-client", "migrate", "install", "completion", "man", "help", "--version", "-V", "--help", "-h");
    /**
     * JVM options of a one-shot command: C1 only (no C2 compilations that a second of work never pays back), the serial
     * GC, and no Flight Recorder events from Lettuce (it would start JFR's machinery for a command nobody records).
     */
    static final String QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dio.lettuce.core.jfr=false";

    /**
     * A POSIX shell script running this program. The first argument that names a command decides the JVM options: a
     * one-shot command gets {@link #QUICK_JVM}; the console (no command) and the {@link #LONG_RUNNING} ones keep the
     * defaults. The class-data archive is used when it exists (a missing or stale one is ignored by the JVM, silently).
     * {@code ORDER_CONSOLE_JAVA_OPTS} comes last, so it can override either.
     *
     * @param java the java command
     * @param run what follows the JVM options: {@code -jar 'JAR'} or a class path and main class, quoted for sh
     * @param archive the class-data archive, or null for none
     * @return the script's text
     */
    static String launcherScript(String java, String run, Path archive) {
        StringBuilder sh = new StringBuilder("#!/bin/sh\n") // i18n-ok: shell script text
                .append("# order-console launcher, written by 'order-console install'. ORDER_CONSOLE_JAVA_OPTS: extra JVM options, e.g. -Xmx4g\n") // i18n-ok: shell script text
                .append("quick=\n") // i18n-ok: shell script text
                .append("for a in \"$@\"; do\n") // i18n-ok: shell script text
                .append("  case \"$a\" in\n") // i18n-ok: shell script text
                .append("    ").append(String.join("|", LONG_RUNNING)).append(") break ;;\n") // i18n-ok: shell script text
                .append("    ").append(String.join("|", ONE_SHOT)).append(") quick='").append(QUICK_JVM).append("'; break ;;\n") // i18n-ok: shell script text
                .append("  esac\n") // i18n-ok: shell script text
                .append("done\n"); // i18n-ok: shell script text
        String tail = " $ORDER_CONSOLE_JAVA_OPTS " + run + " \"$@\"\n"; // i18n-ok: shell script text
        if (archive != null) {
            sh.append("if [ -f ").append(quote(archive.toString())).append(" ]; then\n") // i18n-ok: shell script text
                    .append("  exec ").append(quote(java)).append(" $quick ").append(quote("-XX:SharedArchiveFile=" + archive)) // i18n-ok: shell script text
                    .append(" -Xlog:cds=off -Xlog:cds+dynamic=off").append(tail) // i18n-ok: shell script text
                    .append("fi\n"); // i18n-ok: shell script text
        }
        return sh.append("exec ").append(quote(java)).append(" $quick").append(tail).toString(); // i18n-ok: shell script text
    }

    /** @return the java command of the running JVM */
    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** @return {@code -jar} with the jar, else (classes from a build directory) the class path and the main class */
    private static String runTarget(Path jar) {
        if (jar != null && jar.toString().endsWith(".jar")) {
            return "-jar " + quote(jar.toString());
        }
        return "-cp " + quote(System.getProperty("java.class.path")) + " com.orderconsole.Launcher";
    }

    private static Path codeSource() {
        try {
            return Path.of(InstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** @return the text in single quotes for sh, a quote inside it closed and reopened */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
