package com.orderconsole.ui.main;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Settings;
import com.orderconsole.app.Settings.Theme;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.common.Themes;
import javafx.application.Application;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The dark theme switches at once from the keyboard and is remembered; a language chosen in the menu is kept for the next start. */
class SettingsMenuTest extends ConsoleFxTest {
    @BeforeEach
    @AfterEach
    void defaults() {
        Settings s = Settings.load();
        s.setTheme(Theme.LIGHT);
        s.setLanguage(null);
        s.save();
        interact(() -> Themes.apply(Theme.LIGHT));
    }

    @Test
    void ctrlShiftDSwitchesToDarkAndBackAndIsRemembered() throws Exception {
        openConsole("olga", Role.READ_ONLY);
        assertThat(onFx(() -> view.root().getStyleClass().contains(Themes.DARK))).isFalse();

        clickOn("#nav-GRAPH");
        press(KeyCode.SHORTCUT, KeyCode.SHIFT, KeyCode.D).release(KeyCode.D, KeyCode.SHIFT, KeyCode.SHORTCUT);
        waitUntil(() -> view.root().getStyleClass().contains(Themes.DARK));
        assertThat(onFx(Application::getUserAgentStylesheet)).contains("primer-dark");
        waitUntil(() -> Settings.load().theme() == Theme.DARK);

        press(KeyCode.SHORTCUT, KeyCode.SHIFT, KeyCode.D).release(KeyCode.D, KeyCode.SHIFT, KeyCode.SHORTCUT);
        waitUntil(() -> !view.root().getStyleClass().contains(Themes.DARK));
        assertThat(onFx(Application::getUserAgentStylesheet)).contains("primer-light");
        waitUntil(() -> Settings.load().theme() == Theme.LIGHT);
    }

    @Test
    void aLanguageChosenInTheMenuIsKeptForTheNextStart() throws Exception {
        openConsole("olga", Role.READ_ONLY);
        // Menu items are not nodes the robot can click: fire the one the user would choose.
        interact(() -> lookup("#settingsMenu").<javafx.scene.control.MenuButton>query().getItems().stream()
                .filter(i -> i instanceof javafx.scene.control.Menu).flatMap(m -> ((javafx.scene.control.Menu) m).getItems().stream())
                .filter(i -> "languageZh".equals(i.getId())).findFirst().orElseThrow().fire());
        waitUntil(() -> Settings.load().language().equals(java.util.Optional.of(Languages.ZH_CN)));
        // This session stays in English: its pages were built in it; the status bar says when the change applies.
        waitUntil(() -> "The language changes at the next start.".equals(text("#noticeLabel")));
        assertThat(text("#nav-GRAPH")).isEqualTo("State graph");
    }
}
