package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * After every {@code migrate}, even one that applies no migration: the console's stored procedures and triggers are
 * made anew under the account that runs it. They run as their definer, the account that made them; when that account
 * is dropped, every console is refused (MariaDB/MySQL error 1449), and a {@code migrate} with no pending migration
 * ("Applied 0 migrations") must still bring them back: so any administrator's {@code migrate} does, and the console's
 * refusal names that way out. Only on a server that checks accounts, and only once the schema is at V40.
 */
public class RemakeRoutines implements Callback {
    private static final Logger log = LoggerFactory.getLogger(RemakeRoutines.class);

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.AFTER_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        remake(context.getConnection());
    }

    /**
     * What follows every migrate, also one that {@code Database.connect} leaves out because it would apply nothing.
     *
     * @param c a connection to the migrated schema, as the migrating account
     * @throws IllegalStateException when the routines cannot be made
     */
    public static void remake(Connection c) {
        try {
            if (!atV40(c) || !ConsoleRoles.createAndGrant(c)) {
                return;
            }
            try (Statement st = c.createStatement()) {
                V38__Writer_columns.createTriggers(st);
                V39__Stamped_writes.createSignIns(st);
                V40__Role_checked_procedures.createRoutines(st);
                if (applied(c, "45")) {
                    V45__Api_clients.createRoutines(st);
                }
                if (applied(c, "47")) {
                    V47__History_writers.createTrigger(st);
                }
                if (applied(c, "49")) {
                    V49__Sso_people.createRoutines(st);
                }
            }
            ConsoleRoles.grantProcedures(c);
            log.info("the console's stored procedures and triggers were made anew under the migrating account");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot make the console's stored procedures and triggers anew: " + e.getMessage(), e);
        }
    }

    @Override
    public String getCallbackName() {
        return "remake the console's procedures and triggers";
    }

    private static boolean atV40(Connection c) throws SQLException {
        return applied(c, "40");
    }

    private static boolean applied(Connection c, String version) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM flyway_schema_history WHERE version = '" + version + "' AND success = 1")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }
}
