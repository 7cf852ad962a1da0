package com.orderconsole.app;

import com.orderconsole.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The class-data archive 'install' makes is one the JVM maps for the jar it was made from. */
@Slow
class ClassDataArchiveTest {
    @Test
    void theArchiveMadeAtInstallIsOneTheJvmMapsForTheJar(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("app.jar");
        Path classes = Path.of(ClassDataArchiveTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String name = Hello.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(name));
            out.write(Files.readAllBytes(classes.resolve(name)));
            out.closeEntry();
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path archive = dir.resolve("lib/order-console.jsa");
        assertThat(ClassDataArchive.write(java, jar, archive)).as("why no archive").isNull();
        assertThat(archive).isRegularFile();
        assertThat(archive.resolveSibling("order-console.jsa.partial")).doesNotExist();

        // -Xshare:on fails the start when the archive cannot be mapped or does not fit the class path.
        Process p = new ProcessBuilder(java.toString(), "-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-cp", jar.toString(),
                Hello.class.getName()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("hello");
    }

    /** The program of the jar in the archive test. */
    public static final class Hello {
        public static void main(String[] args) {
            System.out.println("hello");
        }
    }

}
