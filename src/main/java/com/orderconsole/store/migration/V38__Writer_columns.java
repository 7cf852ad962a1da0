package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * The database stamps who wrote each row of the order history and the audit log. {@code written_by} is
 * set by a BEFORE INSERT trigger from {@code SESSION_USER()}, the login of the session that runs the INSERT
 * ("user@client host"): inside a trigger {@code CURRENT_USER()} is the trigger's DEFINER on MariaDB and MySQL alike,
 * and whatever the client puts into the row is overwritten. The audit view compares it with the row's claimed actor.
 *
 * <p>Java rather than SQL: the triggers are made only on a server that checks accounts (where a login means
 * something); on the embedded default without grant tables the columns stay NULL and nothing is flagged. Each trigger
 * is one statement, so no DELIMITER is needed; {@code ADD COLUMN … NULL} at the end of the table is instant on
 * MariaDB 10.3+ and MySQL 8.0.12+. On MySQL with binary logging, creating a trigger needs the TRIGGER privilege and
 * SUPER or {@code log_bin_trust_function_creators = 1} (docs/dba-guide.md, setting up a schema).
 */
public class V38__Writer_columns extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            for (String table : new String[]{"order_history", "audit_log"}) {
                // 80 (user) + 1 + 255 (host) characters: the longest login either server reports.
                st.execute("ALTER TABLE " + table + " ADD COLUMN written_by VARCHAR(336) CHARACTER SET utf8mb4 NULL");
            }
        }
        if (!ConsoleRoles.createAndGrant(context.getConnection())) {
            return; // no grant tables: no accounts to tell apart
        }
        try (Statement st = context.getConnection().createStatement()) {
            createTriggers(st);
        }
    }

    /** The writer-stamp triggers, made anew (also by {@link RemakeRoutines}, under the account that runs migrate). */
    static void createTriggers(Statement st) throws java.sql.SQLException {
        for (String table : new String[]{"order_history", "audit_log"}) {
            st.execute("DROP TRIGGER IF EXISTS " + table + "_writer");
            st.execute("CREATE TRIGGER " + table + "_writer BEFORE INSERT ON " + table
                    + " FOR EACH ROW SET NEW.written_by = SESSION_USER()");
        }
    }

    @Override
    public boolean canExecuteInTransaction() {
        // ALTER TABLE, GRANT and CREATE TRIGGER commit implicitly.
        return false;
    }
}
