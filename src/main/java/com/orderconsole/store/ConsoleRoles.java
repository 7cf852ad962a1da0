package com.orderconsole.store;

import com.orderconsole.domain.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The console's database roles, one per {@link Role} ({@code order_console_read_only} …
 * {@code order_console_admin}), each granted to the next higher one, and what each may do to the tables
 * of the schema. An operator's console role is the highest of these the database account holds.
 *
 * <p>Every role may read every table. Writing starts at support and follows what the engine's writers
 * need: INSERT and UPDATE on the tables changed in place ({@link #UPDATED_IN_PLACE}); INSERT only on every
 * other table, so history, archives and audit tables stay append-only, enforced by the database; the
 * rules archive from ops up. No role gets DELETE anywhere. A migration that adds a table calls
 * {@link #createAndGrant} again.
 */
public final class ConsoleRoles {
    private static final Logger log = LoggerFactory.getLogger(ConsoleRoles.class);
    /** Prefix of the role names. */
    public static final String PREFIX = "order_console_";
    /** Tables whose rows the engine changes in place: the order record and the MySQL follower's cursor. */
    static final Set<String> UPDATED_IN_PLACE = Set.of("orders", "sync_cursor", "dead_letter", "bulk_batch");
    /** Tables written from a higher role than support. */
    static final Map<String, Role> WRITTEN_FROM = Map.of("transition_rules", Role.OPS);
    /** Tables no console role writes: Flyway's record of the migrations. */
    static final Set<String> NEVER_WRITTEN = Set.of("flyway_schema_history");
    /** MySQL/MariaDB error: the server runs with an option that forbids the statement (--skip-grant-tables). */
    private static final int ER_OPTION_PREVENTS_STATEMENT = 1290;

    private ConsoleRoles() {
    }

    /** @return the database role of a console role, e.g. {@code order_console_read_only} */
    public static String name(Role role) {
        return PREFIX + role.name().toLowerCase(Locale.ROOT);
    }

    /** @return the console role a database role stands for; empty for any other role */
    public static Optional<Role> role(String databaseRole) {
        for (Role r : Role.values()) {
            if (name(r).equals(databaseRole)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** @return every console role name, lowest first, for messages */
    public static List<String> names() {
        List<String> all = new ArrayList<>();
        for (Role r : Role.values()) {
            all.add(name(r));
        }
        return all;
    }

    /**
     * Creates the roles if absent, grants each to the next higher one, and grants them on every table of
     * the connection's current schema. Safe to run again.
     *
     * @param c a connection of an account that may create roles and grant on the schema
     * @return false when the server does not check accounts (run without grant tables, as the embedded
     *     default is): no roles can exist there and nothing was done
     */
    public static boolean createAndGrant(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            try {
                for (Role r : Role.values()) {
                    st.execute("CREATE ROLE IF NOT EXISTS " + name(r));
                }
            } catch (SQLException e) {
                if (e.getErrorCode() == ER_OPTION_PREVENTS_STATEMENT) {
                    log.info("this database server does not check accounts (no grant tables): console roles not created");
                    return false;
                }
                throw e;
            }
            Role[] roles = Role.values();
            for (int i = 1; i < roles.length; i++) {
                st.execute("GRANT " + name(roles[i - 1]) + " TO " + name(roles[i]));
            }
            String schema;
            try (ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
                rs.next();
                schema = rs.getString(1);
            }
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM information_schema.TABLES "
                    + "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                String on = quote(schema) + "." + quote(table);
                st.execute("GRANT SELECT ON " + on + " TO " + name(Role.READ_ONLY));
                if (!NEVER_WRITTEN.contains(table)) {
                    String privileges = UPDATED_IN_PLACE.contains(table) ? "INSERT, UPDATE" : "INSERT";
                    st.execute("GRANT " + privileges + " ON " + on + " TO " + name(WRITTEN_FROM.getOrDefault(table, Role.SUPPORT)));
                }
            }
            log.info("console roles granted on {} tables of schema {}", tables.size(), schema);
            return true;
        }
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
