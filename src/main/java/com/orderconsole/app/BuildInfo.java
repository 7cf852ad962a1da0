package com.orderconsole.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What build this is: the project's version as Maven wrote it into {@code build-info.properties}, for
 * {@code --version}, the installers and the {@code orderconsole_build_info} metric.
 */
public final class BuildInfo {
    private static final String VERSION = read();

    private BuildInfo() {
    }

    /** @return the project version, e.g. "0.1.0-SNAPSHOT"; "unknown" when run from classes Maven did not build */
    public static String version() {
        return VERSION;
    }

    /** @return the embedded Redis releases this build carries, per platform (for local use only; see the threat model) */
    public static String bundledRedis() {
        return com.orderconsole.embedded.BundledServers.redis();
    }

    /** @return the embedded MariaDB release this build carries (for local use only; see the threat model) */
    public static String bundledMariaDb() {
        return com.orderconsole.embedded.BundledServers.mariaDb();
    }

    private static String read() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("/build-info.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
