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
 * {@code order_console_admin}), each granted to the next higher one, the follower's service role
 * {@link #FOLLOWER}, and what each may do to the tables of the schema. An operator's console role is the highest of
 * the people's roles the database account holds.
 *
 * <p>Every role may read every table. No person's role writes a row that names who acted, nor an order's status:
 * history, audit log and new orders are written by the stored procedures of V39, which stamp the calling
 * login as the actor, and by the follower. Writing starts at support and follows what the engine's writers need:
 * INSERT and UPDATE on the tables changed in place ({@link #UPDATED_IN_PLACE}); INSERT only on every other table, so
 * archives stay append-only, enforced by the database; the rules archive from ops up. No role gets DELETE anywhere.
 * The follower role holds ops (serve also runs maintenance, which restores a lost Redis and writes the rules archive)
 * and adds the history, the order's status and the follower's cursor; it is meant for the account of {@code serve},
 * never for a person. A migration that adds a table calls {@link #createAndGrant} again.
 */
public final class ConsoleRoles {
    private static final Logger log = LoggerFactory.getLogger(ConsoleRoles.class);
    /** The databases (URL and schema) already told, in this process, that they check no accounts. */
    private static final java.util.Set<String> TOLD_NO_GRANTS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Prefix of the role names. */
    public static final String PREFIX = "order_console_";
    /** The MySQL follower's service role: ops, plus the rows that carry other people's names. */
    public static final String FOLLOWER = PREFIX + "follower";
    /** Tables whose rows the people's roles change in place. */
    static final Set<String> UPDATED_IN_PLACE = Set.of("bulk_batch");
    /**
     * Tables the writers only update: the marks of history writers (V47). The trigger that sets a mark inserts as its
     * definer; a writer's transaction sets its own mark back before it commits, and a person's procedures write history.
     */
    static final Set<String> UPDATED_ONLY = Set.of("history_writer");
    /**
     * Tables people's roles do not UPDATE: a dead letter is closed only through
     * {@code order_console_resolve_dead_letter} (ops), which writes its audit row in the same call, so no close goes
     * unrecorded.
     */
    static final Set<String> UPDATED_BY_PROCEDURE = Set.of("dead_letter");
    /** Tables written from a higher role than support. */
    static final Map<String, Role> WRITTEN_FROM = Map.of("transition_rules", Role.OPS);
    /**
     * Tables only the follower writes directly, and how: the history (rows naming whoever acted), the order's status
     * and version, the follower's cursor, the API's answers kept per idempotency key (serve runs as the follower).
     */
    static final Map<String, String> FOLLOWER_WRITES = Map.of("order_history", "INSERT", "orders", "UPDATE",
            "sync_cursor", "INSERT, UPDATE", "api_idempotency", "INSERT, UPDATE");
    /**
     * Tables no role writes directly: Flyway's record of the migrations, the audit log and the accounts seen (written
     * by the V39 procedures only), the API clients (V45's procedures), the people serve recorded (V49's).
     */
    static final Set<String> NEVER_WRITTEN = Set.of("flyway_schema_history", "audit_log", "console_account", "api_client",
            "sso_person");
    /**
     * The procedures (V39, V40, V45) and the one role granted EXECUTE on each: the server's own privilege check, made in the
     * caller's security context with its roles in force (nested ones included), is the procedure's role check. The
     * roles above the grantee inherit it; the follower holds ops.
     */
    public static final Map<String, String> PROCEDURES = Map.ofEntries(
            Map.entry("order_console_sign_in", name(Role.READ_ONLY)),
            Map.entry("order_console_follower_sign_in", FOLLOWER),
            Map.entry("order_console_create_orders", name(Role.SUPPORT)),
            Map.entry("order_console_mark_loaded", name(Role.SUPPORT)),
            Map.entry("order_console_record_action", name(Role.OPS)),
            Map.entry("order_console_import_orders", name(Role.OPS)),
            Map.entry("order_console_set_expiry", name(Role.OPS)),
            Map.entry("order_console_follow_history", name(Role.OPS)),
            Map.entry("order_console_resolve_dead_letter", name(Role.OPS)),
            Map.entry("order_console_record_override", name(Role.ADMIN)),
            Map.entry("order_console_copy_order", name(Role.ADMIN)),
            // V45: admins register and revoke API clients; only serve's account creates orders in a client's name.
            Map.entry("order_console_api_client_add", name(Role.ADMIN)),
            Map.entry("order_console_api_client_revoke", name(Role.ADMIN)),
            Map.entry("order_console_api_create_order", FOLLOWER),
            // V49: only serve's account records the people it verified and writes their creations and audit rows.
            Map.entry("order_console_sso_person", FOLLOWER),
            Map.entry("order_console_sso_create_order", FOLLOWER),
            Map.entry("order_console_sso_record_action", FOLLOWER));
    /** MySQL/MariaDB errors: no such grant to revoke (on the table, at all). */
    private static final Set<Integer> NO_SUCH_GRANT = Set.of(1141, 1147, 1403);
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
                    // Every migration that grants asks again (eight on a new database): said once per database.
                    if (TOLD_NO_GRANTS.add(c.getMetaData().getURL() + "/" + schema(st))) {
                        log.info("this database server does not check accounts (no grant tables): console roles not created");
                    }
                    return false;
                }
                throw e;
            }
            st.execute("CREATE ROLE IF NOT EXISTS " + FOLLOWER);
            Role[] roles = Role.values();
            for (int i = 1; i < roles.length; i++) {
                st.execute("GRANT " + name(roles[i - 1]) + " TO " + name(roles[i]));
            }
            st.execute("GRANT " + name(Role.OPS) + " TO " + FOLLOWER);
            String schema = schema(st);
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM information_schema.TABLES "
                    + "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                String on = quote(schema) + "." + quote(table);
                if (FOLLOWER_WRITES.containsKey(table) || NEVER_WRITTEN.contains(table)) {
                    // What earlier versions granted people (INSERT on the history and audit log, UPDATE of orders)
                    // goes. One privilege a statement: the migrating account may revoke only what it holds itself.
                    for (Role r : Role.values()) {
                        revokeIfGranted(st, "REVOKE INSERT ON " + on + " FROM " + name(r));
                        revokeIfGranted(st, "REVOKE UPDATE ON " + on + " FROM " + name(r));
                    }
                }
                if (UPDATED_BY_PROCEDURE.contains(table)) {
                    for (Role r : Role.values()) {
                        revokeIfGranted(st, "REVOKE UPDATE ON " + on + " FROM " + name(r));
                    }
                }
                st.execute("GRANT SELECT ON " + on + " TO " + name(Role.READ_ONLY));
                if (FOLLOWER_WRITES.containsKey(table)) {
                    st.execute("GRANT " + FOLLOWER_WRITES.get(table) + " ON " + on + " TO " + FOLLOWER);
                } else if (!NEVER_WRITTEN.contains(table)) {
                    String privileges = UPDATED_IN_PLACE.contains(table) ? "INSERT, UPDATE"
                            : UPDATED_ONLY.contains(table) ? "UPDATE" : "INSERT";
                    st.execute("GRANT " + privileges + " ON " + on + " TO " + name(WRITTEN_FROM.getOrDefault(table, Role.SUPPORT)));
                }
            }
            grantProcedures(c);
            log.info("console roles granted on {} tables of schema {}", tables.size(), schema);
            return true;
        }
    }

    /**
     * Lets each role call the procedures that exist on the schema (none before V39), and only those: an EXECUTE an
     * earlier release granted to a lower role (V39 let support record any action and set deadlines) is revoked.
     * Safe to run again.
     *
     * @param c a connection of the account that created the procedures
     */
    public static void grantProcedures(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            String schema = schema(st);
            Set<String> present = new java.util.HashSet<>();
            try (ResultSet rs = st.executeQuery("SELECT ROUTINE_NAME FROM information_schema.ROUTINES "
                    + "WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'PROCEDURE'")) {
                while (rs.next()) {
                    present.add(rs.getString(1));
                }
            }
            for (Map.Entry<String, String> p : PROCEDURES.entrySet()) {
                if (present.contains(p.getKey())) {
                    String on = quote(schema) + "." + quote(p.getKey());
                    for (String other : allRoles()) {
                        if (!other.equals(p.getValue())) {
                            revokeIfGranted(st, "REVOKE EXECUTE ON PROCEDURE " + on + " FROM " + other);
                        }
                    }
                    st.execute("GRANT EXECUTE ON PROCEDURE " + on + " TO " + p.getValue());
                }
            }
        }
    }

    private static List<String> allRoles() {
        List<String> all = names();
        all.add(FOLLOWER);
        return all;
    }

    private static void revokeIfGranted(Statement st, String revoke) throws SQLException {
        try {
            st.execute(revoke);
        } catch (SQLException e) {
            if (!NO_SUCH_GRANT.contains(e.getErrorCode())) {
                throw e;
            }
        }
    }

    private static String schema(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
