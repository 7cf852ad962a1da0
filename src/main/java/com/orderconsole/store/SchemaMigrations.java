package com.orderconsole.store;

import com.orderconsole.store.migration.RemakeRoutines;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.RepairOutput;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Flyway over this release's migrations (SQL in {@code db/migration}, Java in {@code store/migration}), and the
 * process's memory of the schema histories it saw migrated, so that connecting to the same server again costs one
 * read of the history instead of a full migrate. Failures are Flyway's or the driver's; {@link Database} words them.
 */
final class SchemaMigrations {
    /** Per server URL and account, the schema history as this process last saw it right after a migrate succeeded there. */
    private static final Map<String, List<String>> MIGRATED = new ConcurrentHashMap<>();

    private SchemaMigrations() {
    }

    /**
     * @return Flyway over this release's migrations; after every migrate the procedures and triggers are made anew
     *     under the migrating account ({@link RemakeRoutines}, named so Flyway finds it), since they die with their definer
     */
    static Flyway flyway(DataSource ds) {
        return Flyway.configure().dataSource(ds)
                .locations("classpath:db/migration", "classpath:com/orderconsole/store/migration")
                .callbacks("com.orderconsole.store.migration.RemakeRoutines").load();
    }

    /**
     * Flyway's migrate, unless this process saw one succeed on this server and account and the schema history has not
     * changed by a byte since: Flyway would then apply nothing and validate the same migrations against the same history,
     * after resolving and checksumming every migration on the class path and about 110 statements (15-20 ms of CPU and
     * 5 ms of round trips, paid by every engine a test starts). The after-migrate step still runs, as after every migrate.
     * A process's first connect, and any after another process or a person touched the history, migrate in full.
     *
     * @param key the server URL and account, naming whose history is remembered
     * @throws RuntimeException Flyway's failure, or an {@link IllegalStateException} around the driver's when the
     *     remembered history cannot be compared (the same root cause Flyway's attempt would give)
     */
    static void migrateUnlessSeen(DataSource ds, String key) {
        List<String> seen = MIGRATED.get(key);
        if (seen != null) {
            try (Connection c = ds.getConnection()) {
                if (seen.equals(history(c))) {
                    RemakeRoutines.remake(c);
                    return;
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        flyway(ds).migrate();
        try (Connection c = ds.getConnection()) {
            List<String> now = history(c);
            if (now != null) {
                MIGRATED.put(key, now);
            }
        } catch (SQLException e) {
            MIGRATED.remove(key);
        }
    }

    /**
     * @return the migrations this release has and the schema lacks, as "V49 sso people", oldest first (empty when none)
     * @throws RuntimeException Flyway's failure when the history cannot be read or validated
     */
    static List<String> pending(DataSource ds) {
        return Arrays.stream(flyway(ds).info().pending()).map(m -> "V" + m.getVersion() + " " + m.getDescription()).toList();
    }

    /** @return repaired entries as "V38 writer column" ("R" for repeatable migrations), empty for none */
    static List<String> names(List<RepairOutput> outputs) {
        return outputs == null ? List.of() : outputs.stream()
                .map(o -> (o.version == null || o.version.isEmpty() ? "R" : "V" + o.version) + " " + o.description).toList();
    }

    /** @return every row of Flyway's schema history, every column, in order; null when it cannot be read */
    private static List<String> history(Connection c) {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM flyway_schema_history ORDER BY installed_rank")) {
            int columns = rs.getMetaData().getColumnCount();
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(rs.getString(i)).append('\u0000');
                }
                rows.add(row.toString());
            }
            return rows;
        } catch (SQLException e) {
            return null;
        }
    }
}
