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
 * Issue 34: {@code migrate} asked for SUPER on a server with binary logging even when no pending migration creates a
 * trigger. It asks only when one does; which ones do is a list, and this test keeps the list true to the migrations.
 */
class TriggerMigrationsTest {
    private static final Pattern VERSION = Pattern.compile("^V(\\d+)__");

    @Test
    void superIsNeededOnlyWhenAPendingMigrationCreatesATriggerOnABinaryLoggingServer() {
        assertThat(MigrationPrivileges.superNeeded(true, false, List.of("37", "38", "39"))).isTrue();
        assertThat(MigrationPrivileges.superNeeded(true, false, List.of("39", "40"))).as("past V38: no trigger to create").isFalse();
        assertThat(MigrationPrivileges.superNeeded(true, false, List.of())).isFalse();
        assertThat(MigrationPrivileges.superNeeded(true, true, List.of("38"))).as("creators trusted").isFalse();
        assertThat(MigrationPrivileges.superNeeded(false, false, List.of("38"))).as("no binary log").isFalse();
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
