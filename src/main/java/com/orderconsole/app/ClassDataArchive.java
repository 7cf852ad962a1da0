package com.orderconsole.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class-data archive of a one-shot command: the JDK's and this jar's classes that {@code show}, {@code create},
 * {@code transition} and {@code stats} load, parsed and laid out once at install (application class-data sharing,
 * {@code -Xshare:dump} from a class list), so that each run maps them instead of reading, verifying and linking some
 * 7,500 classes from a 200 MB jar. The list, {@value #CLASS_LIST}, is made by {@code scripts/cds-classlist.sh} against
 * running servers; a class it names that this build lacks is skipped. The JVM checks an archive against the jar it was
 * made from and ignores it when the jar has changed: a stale archive costs the gain, never a wrong class. The
 * {@code install} command makes it, and its launcher hands it to the JVM.
 */
public final class ClassDataArchive {
    /** The class list on the class path. */
    public static final String CLASS_LIST = "cds/order-console.classlist";
    /** How long a dump may take, seconds (about 6 s of CPU on 2 cores). */
    private static final long DUMP_SECONDS = 300;

    private ClassDataArchive() {
    }

    /**
     * Makes the archive for the jar, replacing one made before only once the new one is complete.
     *
     * @param java the java command that will run the jar (an archive fits only the JVM that made it)
     * @param jar the application jar, as the launcher names it
     * @param archive where the archive goes; its directory is created
     * @return null when the archive was written, else why not, in words (the install goes on without it)
     */
    public static String write(Path java, Path jar, Path archive) {
        Path list = null;
        Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
        try (InputStream in = ClassDataArchive.class.getClassLoader().getResourceAsStream(CLASS_LIST)) {
            if (in == null) {
                return "no class list " + CLASS_LIST + " in this build";
            }
            Files.createDirectories(archive.getParent());
            list = Files.createTempFile("order-console", ".classlist");
            Files.copy(in, list, StandardCopyOption.REPLACE_EXISTING);
            Files.deleteIfExists(partial);
            Process dump = new ProcessBuilder(List.of(java.toString(), "-Xshare:dump", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + partial, "-cp", jar.toString()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!dump.waitFor(DUMP_SECONDS, TimeUnit.SECONDS)) {
                dump.destroyForcibly();
                return "the JVM took more than " + DUMP_SECONDS + " s to write it";
            }
            if (dump.exitValue() != 0 || !Files.isRegularFile(partial)) {
                return "the JVM's dump exited " + dump.exitValue();
            }
            Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return null;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            try {
                Files.deleteIfExists(partial);
                if (list != null) {
                    Files.deleteIfExists(list);
                }
            } catch (IOException ignored) {
                // A temporary file left behind harms nothing.
            }
        }
    }
}
