package com.orderconsole.store;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which migrations create triggers is a list, and this test keeps it true to the migrations. Since issue 33.7 every
 * {@code migrate} makes those triggers anew, so SUPER (with binary logging, creators untrusted) is asked on every run.
 */
class TriggerMigrationsTest {
    private static final Pattern VERSION = Pattern.compile("^V(\\d+)__");

    @Test
    void superIsNeededOnABinaryLoggingServerThatDoesNotTrustCreatorsForEveryMigrateRemakesTheTriggers() {
        assertThat(MigrationPrivileges.superNeeded(true, false)).as("every migrate makes the triggers anew (issue 33.7)").isTrue();
        assertThat(MigrationPrivileges.superNeeded(true, true)).as("creators trusted").isFalse();
        assertThat(MigrationPrivileges.superNeeded(false, false)).as("no binary log").isFalse();
    }

    @Test
    void theListNamesEveryMigrationThatCreatesATrigger() throws Exception {
        Set<String> creating = new TreeSet<>();
        for (Path dir : List.of(Path.of("src/main/java/com/orderconsole/store/migration"), Path.of("src/main/resources/db/migration"))) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Matcher m = VERSION.matcher(f.getFileName().toString());
                    if (m.find() && Files.readString(f).toUpperCase(Locale.ROOT).matches("(?s).*CREATE\\s+(DEFINER\\s*=\\s*\\S+\\s+)?TRIGGER.*")) {
                        creating.add(m.group(1));
                    }
                }
            }
        }
        assertThat(creating).isNotEmpty();
        assertThat(MigrationPrivileges.TRIGGER_MIGRATIONS).containsExactlyInAnyOrderElementsOf(creating);
    }
}
