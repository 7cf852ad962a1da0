package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26, the command line for scripts: exit codes listed from {@link ExitCode} in every help page, the bash
 * completion script (picocli's AutoComplete) and the man pages (picocli-codegen's ManPageGenerator).
 */
class ScriptSupportCliTest {
    @BeforeEach
    void inEnglish() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void everyHelpPageListsEveryExitCode() {
        CliRunner.Run help = raw("reconcile", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Exit codes:");
        CliRunner.Run top = raw("--help");
        assertThat(top.out().split("Exit codes", -1)).as("one list of exit codes on the top page, not a stale second one")
                .hasSize(2);
        for (ExitCode e : ExitCode.values()) {
            String words = Messages.get("cli.exit." + e.kind());
            assertThat(help.out()).containsPattern("(?m)^\\s*" + e.code() + "\\s+" + java.util.regex.Pattern.quote(words.substring(0,
                    Math.min(20, words.length()))));
        }
    }

    @Test
    void theCompletionScriptCompletesCommandsAndOptionsInBash(@TempDir Path dir) throws Exception {
        CliRunner.Run r = raw("completion");
        assertThat(r.code()).as(r.err()).isZero();
        Path script = dir.resolve("order-console-completion.bash");
        Files.writeString(script, r.out(), StandardCharsets.UTF_8);

        // What bash does on TAB: the completion function fills COMPREPLY from the words typed so far.
        assertThat(complete(script, "order-console", "bul")).contains("bulk");
        assertThat(complete(script, "order-console", "bulk", "--ye")).contains("--yes");
        assertThat(complete(script, "order-console", "reconcile", "--re")).contains("--repair", "--reason");
        assertThat(complete(script, "order-console", "co")).contains("completion");
    }

    private static String complete(Path script, String... words) throws Exception {
        String array = String.join(" ", words);
        String cmd = "source '" + script + "'; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + array + "'; COMP_POINT=${#COMP_LINE}; _complete_order-console; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void theManPagesCoverEveryCommandWithItsOptionsAndExitCodes(@TempDir Path dir) throws Exception {
        CliRunner.Run top = raw("man", "--format", "asciidoc");
        assertThat(top.code()).as(top.err()).isZero();
        assertThat(top.out()).contains("= order-console(1)").contains("bulk").contains("Exit codes");

        Path pages = dir.resolve("man");
        CliRunner.Run all = raw("man", "--format", "asciidoc", "--out", pages.toString(), "--json");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(pages.resolve("order-console.adoc")).exists();
        String bulk = Files.readString(pages.resolve("order-console-bulk.adoc"));
        assertThat(bulk).contains("--yes").contains("--dry-run").contains("reconcile found disagreements");
        assertThat(all.json().get("pages").size()).isGreaterThan(15);
    }

    @Test
    void theManPagesAreRoffThatManShowsWithoutWarnings(@TempDir Path dir) throws Exception {
        Path pages = dir.resolve("man1");
        CliRunner.Run all = raw("man", "--out", pages.toString(), "--json");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.json().get("pages").size()).isGreaterThan(15);
        String bulk = Files.readString(pages.resolve("order-console-bulk.1"));
        assertThat(bulk).startsWith(".TH \"ORDER-CONSOLE-BULK\" 1").contains(".SH OPTIONS").contains("\\-\\-yes");

        // groff as man runs it: -ww reports every warning (a bad request, an unknown escape) on stderr.
        Process p = new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", pages.resolve("order-console-bulk.1").toString())
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).replaceAll(".\b", "");
        String warnings = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(warnings).isEmpty();
        assertThat(shown).contains("NAME").contains("order-console-bulk").contains("--yes").contains("EXIT STATUS")
                .contains("reconcile found disagreements");
    }

    @Test
    void installGivesAJavaJarUserTheCommandItsCompletionAndItsManPages(@TempDir Path dir) throws Exception {
        CliRunner.Run r = raw("install", "--prefix", dir.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        Path launcher = dir.resolve("bin/order-console");
        assertThat(Files.isExecutable(launcher)).isTrue();
        assertThat(dir.resolve("share/man/man1/order-console.1")).exists();
        assertThat(dir.resolve("share/man/man1/order-console-transition.1")).exists();

        Path completion = dir.resolve("share/bash-completion/completions/order-console");
        assertThat(complete(completion, "order-console", "tra")).contains("transition", "traffic");

        Process p = new ProcessBuilder(launcher.toString(), "--version").redirectErrorStream(true).start();
        String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(version).isZero();
        assertThat(version).startsWith("order-console " + com.orderconsole.app.BuildInfo.version()).doesNotContain("unknown");
    }

    @Test
    void versionNamesTheBundledServersAsTheirArtifactsDo() {
        CliRunner.Run r = raw("--version");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^bundled Redis \\d+\\.\\d+\\.\\d+ \\(Linux x86-64\\)")
                .containsPattern("(?m)^bundled MariaDB \\d+\\.\\d+\\.\\d+ \\(Linux x86-64\\)$");
    }
}
