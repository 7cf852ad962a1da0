package com.orderconsole.arch;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every jar on the classpath must run on Java 17 (class-file major version 61 or lower). javafx:run
 * silently drops a newer jar from the module path, and the console then fails to start even though
 * tests and the shaded jar work (atlantafx-base 2.1.0 did exactly that).
 */
class Java17ClasspathTest {
    private static final int JAVA_17 = 61;

    @Test
    void noDependencyNeedsANewerJava() throws IOException {
        List<String> tooNew = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(entry)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry je = e.nextElement();
                    // Multi-release jars keep newer classes under META-INF/versions/N; the base classes count.
                    if (je.getName().endsWith(".class") && !je.getName().startsWith("META-INF/")
                            && !je.getName().endsWith("module-info.class")) {
                        int major = majorVersion(jar, je);
                        if (major > JAVA_17) {
                            tooNew.add(new File(entry).getName() + " (" + je.getName() + ": class version " + major + ")");
                        }
                        break;
                    }
                }
            }
        }
        assertThat(tooNew).as("jars built for a Java newer than 17").isEmpty();
    }

    private static int majorVersion(JarFile jar, JarEntry e) throws IOException {
        try (InputStream in = jar.getInputStream(e); DataInputStream d = new DataInputStream(in)) {
            d.readInt();
            d.readUnsignedShort();
            return d.readUnsignedShort();
        }
    }
}
