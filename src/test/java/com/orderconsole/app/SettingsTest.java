package com.orderconsole.app;

import com.orderconsole.app.Settings.Theme;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The user's language and theme are remembered across starts, and a damaged settings file never stops the console. */
class SettingsTest {
    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void noFileMeansTheOsLocaleAndLight(@TempDir Path dir) {
        Settings s = Settings.load(dir.resolve("never-made"));
        assertThat(s.language()).isEmpty();
        assertThat(s.theme()).isEqualTo(Theme.LIGHT);
        assertThat(s.problems()).isEmpty();
    }

    @Test
    void aChoiceIsRememberedAcrossStarts(@TempDir Path dir) {
        Path config = dir.resolve("order-console");
        Settings s = Settings.load(config);
        s.setTheme(Theme.DARK);
        s.setLanguage(Languages.ZH_CN);
        s.save();
        Settings again = Settings.load(config);
        assertThat(again.theme()).isEqualTo(Theme.DARK);
        assertThat(again.language()).contains(Languages.ZH_CN);
        // Back to the OS's language: the key disappears rather than naming the current OS language.
        again.setLanguage(null);
        again.save();
        assertThat(Settings.load(config).language()).isEmpty();
        assertThat(Settings.load(config).theme()).isEqualTo(Theme.DARK);
    }

    @Test
    void profilesInTheSameDirectoryAreLeftAlone(@TempDir Path dir) throws Exception {
        Path profiles = Files.createDirectories(dir.resolve("profiles"));
        Files.writeString(profiles.resolve("prod.properties"), "name=prod\n");
        Settings s = Settings.load(dir);
        s.setTheme(Theme.DARK);
        s.save();
        assertThat(Files.readString(profiles.resolve("prod.properties"))).isEqualTo("name=prod\n");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("profiles", "settings.properties");
        }
    }

    @Test
    void aDamagedFileKeepsTheGoodValuesAndSaysWhatWasIgnored(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(Settings.FILE), String.join("\n",
                "# written by hand",
                "theme = dark",
                "language = klingon",
                "colour = red",
                "nonsense"), StandardCharsets.UTF_8);
        Settings s = Settings.load(dir);
        assertThat(s.theme()).isEqualTo(Theme.DARK);
        assertThat(s.language()).isEmpty();
        assertThat(s.problems()).hasSize(3);
        assertThat(s.problems().get(0)).contains(Settings.FILE, "line 3", "language", "klingon");
        assertThat(s.problems().get(1)).contains("line 4", "colour");
        assertThat(s.problems().get(2)).contains("line 5", "nonsense");
        Messages.use(Languages.ZH_CN);
        assertThat(s.problems().get(0)).contains("第 3 行", "klingon");
    }

    @Test
    void anUnknownThemeFallsBackToLight(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(Settings.FILE), "theme=solarized\n");
        Settings s = Settings.load(dir);
        assertThat(s.theme()).isEqualTo(Theme.LIGHT);
        assertThat(s.problems()).singleElement().asString().contains("theme", "solarized");
    }

    @Test
    void theFlagBeatsTheSettingsWhichBeatTheOs() {
        Locale chineseMachine = Locale.SIMPLIFIED_CHINESE;
        assertThat(Languages.choose(null, Optional.empty(), chineseMachine)).isEqualTo(Languages.ZH_CN);
        assertThat(Languages.choose(null, Optional.empty(), Locale.TRADITIONAL_CHINESE)).isEqualTo(Languages.ZH_CN);
        assertThat(Languages.choose(null, Optional.empty(), Locale.GERMANY)).isEqualTo(Locale.ENGLISH);
        assertThat(Languages.choose(null, Optional.of(Locale.ENGLISH), chineseMachine)).isEqualTo(Locale.ENGLISH);
        assertThat(Languages.choose("zh-CN", Optional.of(Locale.ENGLISH), Locale.US)).isEqualTo(Languages.ZH_CN);
        assertThat(Languages.choose("en", Optional.of(Languages.ZH_CN), chineseMachine)).isEqualTo(Locale.ENGLISH);
        assertThatThrownBy(() -> Languages.choose("fr", Optional.empty(), Locale.US))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'fr'").hasMessageContaining("zh-CN");
    }

    @Test
    void theFlagIsFoundBeforeParsing() {
        assertThat(Languages.flag(new String[]{"stats", "--lang", "zh-CN"})).isEqualTo("zh-CN");
        assertThat(Languages.flag(new String[]{"--lang=en", "stats"})).isEqualTo("en");
        assertThat(Languages.flag(new String[]{"transition", "--reason", "x", "--", "--lang", "en"})).isNull();
        assertThat(Languages.flag(new String[]{"stats"})).isNull();
    }
}
