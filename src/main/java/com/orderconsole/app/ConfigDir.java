package com.orderconsole.app;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the console keeps what a user configures (connection profiles, settings): never data, never a
 * password. Linux and other Unix: {@code $XDG_CONFIG_HOME/order-console}, else
 * {@code ~/.config/order-console} (XDG Base Directory spec); macOS: {@code ~/Library/Application Support/order-console};
 * Windows: {@code %APPDATA%\order-console}.
 */
public final class ConfigDir {
    private ConfigDir() {
    }

    /** @return the platform's per-user configuration directory for this program (not created here) */
    public static Path path() {
        return path(System.getProperty("os.name", ""), System::getenv, home());
    }

    /**
     * The user's home directory as a Unix program takes it: {@code $HOME} when set, else the JVM's {@code user.home} (which
     * the JVM reads from the account database and which ignores {@code $HOME}: a run with {@code HOME=/tmp/x} put its
     * configuration under /tmp/x and its data under /root, the fresh-user tester found).
     *
     * @return the home directory's path, as text
     */
    public static String home() {
        return home(System::getenv, System.getProperty("user.home"));
    }

    /**
     * @param env environment lookup, e.g. {@code System::getenv}
     * @param userHome the JVM's {@code user.home}
     * @return {@code $HOME} when set and not blank, else {@code userHome}
     */
    static String home(java.util.function.Function<String, String> env, String userHome) {
        String home = env.apply("HOME");
        return blank(home) ? userHome : home;
    }

    /**
     * @param osName the value of {@code os.name}
     * @param env environment lookup, e.g. {@code System::getenv}
     * @param home the user's home directory
     * @return the configuration directory for that platform and environment
     */
    static Path path(String osName, java.util.function.Function<String, String> env, String home) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            String appData = env.apply("APPDATA");
            return (blank(appData) ? Path.of(home, "AppData", "Roaming") : Path.of(appData)).resolve("order-console");
        }
        if (os.startsWith("mac")) {
            return Path.of(home, "Library", "Application Support", "order-console");
        }
        String xdg = env.apply("XDG_CONFIG_HOME");
        return (blank(xdg) ? Path.of(home, ".config") : Path.of(xdg)).resolve("order-console");
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
