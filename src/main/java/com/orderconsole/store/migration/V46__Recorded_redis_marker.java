package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * MySQL records which Redis data set it follows ({@code dataset_identity.redis_marker}, the marker
 * {@code osm:epoch} the last restore set). A Redis restored from an older copy carries the marker of the copy; the same
 * copy restored a second time carries the marker of before the first restore, which the cursor rows no longer name, so
 * the follower's trimmed-entry fence alone would take it for a new data set. With the marker recorded, every process compares
 * Redis' marker with MySQL's before a transition and finds any older copy, the second restore included.
 *
 * <p>Only the processes that restore Redis (they run the follower) write it: the follower role gets UPDATE of that one
 * column; no person's role does (a person could otherwise make a stale copy pass for the current one). Numbered 46, not
 * the free 44: a database already at V45 would take a lower version for one left out and Flyway would refuse to migrate.
 * No routine reads the column, so {@link RemakeRoutines} has nothing to remake for it; the column grant outlives the
 * table grants {@link ConsoleRoles#createAndGrant} makes again.
 */
public class V46__Recorded_redis_marker extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            // ADD COLUMN … NULL at the end of the table: instant on MariaDB 10.3+ and MySQL 8.0.12+.
            st.execute("ALTER TABLE dataset_identity ADD COLUMN redis_marker VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL");
        }
        if (!ConsoleRoles.createAndGrant(context.getConnection())) {
            return; // no grant tables: one owner
        }
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("GRANT UPDATE (redis_marker) ON dataset_identity TO " + ConsoleRoles.FOLLOWER);
        }
    }

    @Override
    public boolean canExecuteInTransaction() {
        // ALTER TABLE and GRANT commit implicitly.
        return false;
    }
}
