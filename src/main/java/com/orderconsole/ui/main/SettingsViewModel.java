package com.orderconsole.ui.main;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Settings;
import com.orderconsole.app.Settings.Theme;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Feedback;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

import java.util.Locale;

/**
 * The console's settings menu: the theme (switched at once, and remembered) and the language (remembered
 * for the next start: every page is built in one language). Each change is written to settings.properties
 * in the background.
 */
public final class SettingsViewModel {
    private final Settings settings;
    private final Background background;
    private final ObjectProperty<Theme> theme;
    /** null: follow the OS locale. */
    private final ObjectProperty<Locale> language;
    private final Feedback feedback = new Feedback();

    /**
     * @param settings the settings read at start
     * @param background where the file is written
     */
    public SettingsViewModel(Settings settings, Background background) {
        this.settings = settings;
        this.background = background;
        this.theme = new SimpleObjectProperty<>(settings.theme());
        this.language = new SimpleObjectProperty<>(settings.language().orElse(null));
        theme.addListener((o, a, t) -> {
            settings.setTheme(t);
            save(null);
        });
        language.addListener((o, a, l) -> {
            settings.setLanguage(l);
            Locale next = l != null ? l : Languages.supported(Locale.getDefault());
            save(next.equals(Messages.locale()) ? "" : Messages.get("settings.language.nextStart"));
        });
    }

    private void save(String okText) {
        background.run(Messages.get("settings.save"), job -> {
            settings.save();
            return settings.file();
        }, file -> {
            if (okText != null) {
                feedback.ok(okText);
            }
        }, feedback::error);
    }

    /** Switches between light and dark. */
    public void toggleTheme() {
        theme.set(theme.get().toggled());
    }

    /** @return the theme; setting it saves it */
    public ObjectProperty<Theme> themeProperty() {
        return theme;
    }

    /** @return the language kept for the next start (null: the OS locale's); setting it saves it */
    public ObjectProperty<Locale> languageProperty() {
        return language;
    }

    /** @return the outcome of the last change: a note that the language changes at the next start, or why saving failed */
    public Feedback feedback() {
        return feedback;
    }
}
