package com.orderconsole.app;

import com.orderconsole.app.Messages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * What a user chose for the console's look and language, kept in {@code settings.properties} of the
 * {@link ConfigDir} (profiles live beside it, in {@code profiles/}). Never data, never a password.
 *
 * <p>Keys: {@code language} ({@code en}, {@code zh-CN}; absent: the OS locale decides) and {@code theme}
 * ({@code light}, {@code dark}). A file that cannot be read or holds an unknown value is not fatal: the
 * value is ignored (the console would rather open in English and light than not open), and
 * {@link #problems()} says what was ignored, naming the file, line and key.
 */
public final class Settings {
    /** File name inside the configuration directory. */
    public static final String FILE = "settings.properties";

    /** The console's colour scheme. */
    public enum Theme {
        LIGHT, DARK;

        /** @return the value in the file, "light" or "dark" */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @return the other theme */
        public Theme toggled() {
            return this == LIGHT ? DARK : LIGHT;
        }
    }

    private final Path file;
    private Locale language;
    private Theme theme;
    /** Keys and arguments of what was ignored: formatted when asked, in the language chosen by then. */
    private final java.util.List<Object[]> problems = new java.util.ArrayList<>();

    private Settings(Path file) {
        this.file = file;
        this.theme = Theme.LIGHT;
    }

    /** System property naming another configuration directory (the tests' own, so a developer's settings never leak in). */
    public static final String DIR_PROPERTY = "order-console.config-dir";

    /**
     * Reads the settings of this user ({@link ConfigDir#path()}, or the directory named by {@link #DIR_PROPERTY}).
     *
     * @return the settings; defaults when the file does not exist
     */
    public static Settings load() {
        String dir = System.getProperty(DIR_PROPERTY);
        return load(dir == null || dir.isBlank() ? ConfigDir.path() : Path.of(dir));
    }

    /**
     * @param dir the configuration directory (created on {@link #save()} when missing)
     * @return the settings in {@code dir/settings.properties}; defaults when the file does not exist
     */
    public static Settings load(Path dir) {
        Settings s = new Settings(dir.resolve(FILE));
        if (!Files.isRegularFile(s.file)) {
            return s;
        }
        java.util.List<String> lines;
        try {
            lines = Files.readAllLines(s.file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            s.problems.add(new Object[]{"settings.problem.unreadable", s.file, e.getMessage()});
            return s;
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                s.problems.add(new Object[]{"settings.problem.syntax", s.file, i + 1, line});
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            switch (key) {
                case "language" -> {
                    try {
                        s.language = value.isEmpty() ? null : Languages.parse(value);
                    } catch (IllegalArgumentException e) {
                        s.problems.add(new Object[]{"settings.problem.language", s.file, i + 1, value});
                    }
                }
                case "theme" -> {
                    try {
                        s.theme = Theme.valueOf(value.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        s.problems.add(new Object[]{"settings.problem.theme", s.file, i + 1, value});
                    }
                }
                default -> s.problems.add(new Object[]{"settings.problem.key", s.file, i + 1, key});
            }
        }
        return s;
    }

    /** @return the language chosen in the settings, empty when the OS locale decides */
    public Optional<Locale> language() {
        return Optional.ofNullable(language);
    }

    /** @param locale a supported language ({@link Languages#SUPPORTED}), or null to follow the OS locale */
    public void setLanguage(Locale locale) {
        this.language = locale == null ? null : Languages.supported(locale);
    }

    /** @return the theme chosen, {@link Theme#LIGHT} by default */
    public Theme theme() {
        return theme;
    }

    /** @param theme the theme to keep */
    public void setTheme(Theme theme) {
        this.theme = java.util.Objects.requireNonNull(theme, "theme");
    }

    /** @return what was ignored when the file was read, in words naming file, line and key; empty when nothing */
    public java.util.List<String> problems() {
        return problems.stream()
                .map(p -> Messages.format((String) p[0], java.util.Arrays.copyOfRange(p, 1, p.length)))
                .toList();
    }

    /** @return the file these settings are read from and saved to */
    public Path file() {
        return file;
    }

    /**
     * Writes the settings (creating the configuration directory), replacing the file in one step so a
     * crash never leaves half a file.
     *
     * @throws UncheckedIOException when the directory or the file cannot be written
     */
    public void save() {
        Properties p = new Properties();
        if (language != null) {
            p.setProperty("language", Languages.tag(language));
        }
        p.setProperty("theme", theme.tag());
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), FILE, ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "Order State Console settings (language: en or zh-CN, absent = the OS locale; theme: light or dark)"); // i18n-ok: a file comment
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.format("settings.cannotWrite", file, e.getMessage()), e);
        }
    }
}
