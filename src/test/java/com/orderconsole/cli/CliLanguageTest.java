package com.orderconsole.cli;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line speaks the language chosen by --lang, else the settings, else the OS: its help comes
 * from the bundles through picocli's resource bundle support, and so do its messages.
 */
class CliLanguageTest {
    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpIsInTheLanguageAsked() {
        Run zh = run("--lang", "zh-CN", "transition", "--help");
        assertThat(zh.code()).isZero();
        assertThat(zh.out()).contains("用法", "在规则允许时，将订单转换到另一个状态", "目标状态", "比较并设置");
        Run en = run("transition", "--help", "--lang=en");
        assertThat(en.out()).contains("Usage:", "Move an order to another status", "compare-and-set").doesNotContain("订单");
    }

    /** {@code java -jar order-console.jar --lang zh-CN}: the console opens in Chinese, JavaFX's own texts too. */
    @Test
    void theConsoleLauncherTakesTheFlag() {
        Locale before = Locale.getDefault();
        try {
            Locale[] seen = new Locale[2];
            int code = OrderCli.run(new String[]{"--lang", "zh-CN"}, System.out, System.err, (config, operator) -> {
                seen[0] = Messages.locale();
                seen[1] = Locale.getDefault();
            });
            assertThat(code).isZero();
            assertThat(seen[0]).isEqualTo(Languages.ZH_CN);
            assertThat(seen[1]).as("default locale, read by JavaFX's date pickers and dialogs").isEqualTo(Languages.ZH_CN);
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void anUnknownLanguageIsAUsageError() {
        Run r = run("--lang", "fr", "stats");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("'fr'", "en", "zh-CN");
    }

    @Test
    void usageErrorsAreInTheLanguageToo() {
        Run r = run("--lang", "zh-CN", "create", "--id", "A-1", "--expire-in", "soon");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("错误", "无效的时长", "soon", "--help");
    }

    @Test
    void theSettingsChooseWhenNoFlagDoes() {
        Settings s = Settings.load();
        assertThat(s.file().toString()).as("tests keep their own settings (order-console.config-dir)").contains("test-config");
        s.setLanguage(Languages.ZH_CN);
        s.save();
        try {
            assertThat(run("sweep", "--help").out()).contains("取消所有已过支付截止时间的未支付订单");
            assertThat(run("--lang", "en", "sweep", "--help").out()).contains("Cancel every unpaid order");
        } finally {
            s.setLanguage(null);
            s.save();
        }
    }

    @Test
    void aDamagedSettingsFileIsAWarningNotAFailure() throws Exception {
        Settings s = Settings.load();
        s.save();
        java.nio.file.Files.writeString(s.file(), "language = elvish\n");
        try {
            Run r = run("sweep", "--help");
            assertThat(r.code()).isZero();
            assertThat(r.out()).contains("Cancel every unpaid order");
            assertThat(r.err()).contains("warning:", Settings.FILE, "line 1", "elvish");
        } finally {
            s.setLanguage(null);
            s.save();
        }
    }

    /** Every command, option and parameter has its help text in both languages: none is blank or the bare key. */
    @Test
    void everyHelpTextIsInBothBundles() {
        for (Locale l : Languages.SUPPORTED) {
            Messages.use(l);
            CommandLine cl = new CommandLine(new OrderCli.Root(System.out, System.err, null, OrderCli.PasswordPrompt.TERMINAL, OrderCli.YesPrompt.TERMINAL, false));
            cl.setResourceBundle(Messages.bundle());
            List<String> missing = new ArrayList<>();
            check(cl, missing);
            assertThat(missing).as("help texts missing in " + l).isEmpty();
        }
    }

    private static void check(CommandLine cl, List<String> missing) {
        CommandSpec spec = cl.getCommandSpec();
        if (String.join("", spec.usageMessage().description()).isBlank()) {
            missing.add(spec.qualifiedName() + " (description)");
        }
        for (OptionSpec o : spec.options()) {
            String d = String.join("", o.description());
            if (!o.hidden() && (d.isBlank() || d.equals(o.descriptionKey()))) {
                missing.add(spec.qualifiedName() + " " + o.longestName());
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (String.join("", p.description()).isBlank()) {
                missing.add(spec.qualifiedName() + " " + p.paramLabel());
            }
        }
        cl.getSubcommands().values().forEach(sub -> check(sub, missing));
    }
}
