package com.orderconsole.store;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What Flyway's schema history says without Flyway: whether this release's newest migration is applied. A signed-in
 * session, which may not migrate, only needs to know that none is pending; asking Flyway resolves and checksums every
 * migration on the class path first, a third of a second of a short command's start.
 */
final class SchemaHistory {
    /**
     * The newest schema version this release's migrations reach (db/migration and store/migration); a test keeps it
     * equal to the newest migration on the class path.
     */
    static final int SCHEMA_VERSION = 49;

    private SchemaHistory() {
    }

    /**
     * @return true when the history holds a successful migration at {@link #SCHEMA_VERSION} or later and no failed one:
     *     then no migration of this release is pending. False for any other history, none, or a failed read: Flyway then
     *     judges, and its words say what is pending.
     */
    static boolean upToDate(DataSource ds) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
            int newest = 0;
            while (rs.next()) {
                if (!rs.getBoolean(2)) {
                    return false;
                }
                String v = rs.getString(1);
                if (v.matches("\\d{1,9}")) {
                    newest = Math.max(newest, Integer.parseInt(v));
                }
            }
            return newest >= SCHEMA_VERSION;
        } catch (SQLException e) {
            return false;
        }
    }
}
