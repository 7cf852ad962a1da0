package com.orderconsole.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Deque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every place where MariaDB (10.6+) and MySQL (8.0.22+, 8.4 LTS) want a statement phrased differently, in one
 * place, chosen from the server's version string ({@code SELECT VERSION()}: MariaDB's contains "MariaDB").
 * Everything else the product sends is written once, in the grammar both accept (MySqlGrammarTest checks it
 * against MySQL 8's). Sources: the MySQL 8.4 Reference Manual (dev.mysql.com/doc/refman/8.4/en/) and MariaDB's
 * (mariadb.com/kb/en/), pages named at each method.
 */
public enum SqlDialect {
    /** MariaDB 10.6 or later. */
    MARIADB(10, 6, 0),
    /** MySQL 8.0.22 or later (8.4 LTS included). */
    MYSQL(8, 0, 22);

    private static final Pattern VERSION = Pattern.compile("^(?:5\\.5\\.5-)?(\\d+)\\.(\\d+)\\.(\\d+)");
    private final int[] minimum;

    SqlDialect(int major, int minor, int patch) {
        this.minimum = new int[] {major, minor, patch};
    }

    /**
     * @param version the server's version string, e.g. {@code 10.11.6-MariaDB-0+deb12u1} or {@code 8.4.3}
     * @return the dialect of that server
     */
    public static SqlDialect of(String version) {
        return version != null && version.toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }

    /** @return the dialect of the server behind a connection (asks it {@code SELECT VERSION()}) */
    public static SqlDialect of(Connection c) throws SQLException {
        return of(version(c));
    }

    /** @return the server's version string ({@code SELECT VERSION()}) */
    public static String version(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** @return the oldest release of this server the product supports, e.g. "8.0.22" */
    public String minimumVersion() {
        return minimum[0] + "." + minimum[1] + "." + minimum[2];
    }

    /**
     * MySQL 8.0.22 is the oldest release a statement-by-statement review against the manual found to run every
     * query (the order page's UNION ALL of parenthesised parts, each with its own ORDER BY and LIMIT; the
     * information_schema role tables came in 8.0.19); MariaDB 10.6 is the oldest maintained release with roles,
     * default roles and {@code CREATE ROLE IF NOT EXISTS}.
     *
     * @param version the server's version string
     * @return true when the server is at least {@link #minimumVersion()}; a string without numbers counts as new enough
     */
    public boolean supports(String version) {
        Matcher m = VERSION.matcher(version == null ? "" : version);
        if (!m.find()) {
            return true;
        }
        for (int i = 0; i < 3; i++) {
            int part = Integer.parseInt(m.group(i + 1));
            if (part != minimum[i]) {
                return part > minimum[i];
            }
        }
        return true;
    }

    /** @return the server's name for messages: "MariaDB" or "MySQL" */
    public String product() {
        return this == MARIADB ? "MariaDB" : "MySQL";
    }

    /**
     * The database roles of the signed-in account.
     *
     * @param held every role the account holds, directly or through other roles
     * @param enabled the roles enabled in this session (default roles, SET ROLE)
     * @param inForce the roles in force in this session: the enabled ones and every role granted to them
     */
    public record Roles(Set<String> held, Set<String> enabled, Set<String> inForce, Set<String> direct,
                        Map<String, Set<String>> grantedTo) {
        /** Roles known only by name (no grants read): each held role counts as granted directly. */
        public Roles(Set<String> held, Set<String> enabled, Set<String> inForce) {
            this(held, enabled, inForce, held, Map.of());
        }

        /**
         * The role an account's default role must be for {@code role} to be in force at sign-in: itself when it is
         * granted to the account, else the role granted to the account that carries it (a team's role granted a
         * console role). {@code SET DEFAULT ROLE} accepts only a role granted to the account itself: MariaDB refuses
         * any other with "Invalid role specification" (error 1959), MySQL with error 3530.
         *
         * @return that role, or null when the account does not hold {@code role}
         */
        public String carrying(String role) {
            if (direct.contains(role)) {
                return role;
            }
            for (String d : direct) {
                if (closure(Set.of(d), grantedTo).contains(role)) {
                    return d;
                }
            }
            return null;
        }
    }

    /**
     * Reads the session's roles the same way on both servers. MariaDB's {@code information_schema.ENABLED_ROLES}
     * lists the roles granted to the enabled ones too (mariadb.com/kb/en/information-schema-enabled_roles-table/);
     * MySQL's lists only the roles activated directly (refman/8.4/en/information-schema-enabled-roles-table.html),
     * so read alone it takes a console role granted to a team's default role for none. The roles granted to roles are read
     * from {@code APPLICABLE_ROLES} (one row per grant reachable from the account: GRANTEE is the user part of the
     * account or role the role was granted to, refman/8.4/en/information-schema-applicable-roles-table.html) and
     * followed from the enabled ones.
     *
     * @param st a statement of the signed-in session
     * @return the roles held and in force
     */
    public static Roles rolesInForce(Statement st) throws SQLException {
        Map<String, Set<String>> grantedTo = new HashMap<>();
        Set<String> held = new TreeSet<>();
        try (ResultSet rs = st.executeQuery("SELECT GRANTEE, ROLE_NAME FROM information_schema.APPLICABLE_ROLES")) {
            while (rs.next()) {
                if (rs.getString(1) != null && rs.getString(2) != null) {
                    grantedTo.computeIfAbsent(rs.getString(1), g -> new TreeSet<>()).add(rs.getString(2));
                    held.add(rs.getString(2));
                }
            }
        }
        Set<String> enabled = new TreeSet<>();
        try (ResultSet rs = st.executeQuery("SELECT ROLE_NAME FROM information_schema.ENABLED_ROLES")) {
            while (rs.next()) {
                if (rs.getString(1) != null) { // MariaDB answers one NULL row when no role is enabled
                    enabled.add(rs.getString(1));
                }
            }
        }
        // Granted to the account itself: a grantee that is no role (MariaDB names the account 'user@host', MySQL its user part).
        Set<String> direct = new TreeSet<>();
        grantedTo.forEach((grantee, roles) -> {
            if (!held.contains(grantee)) {
                direct.addAll(roles);
            }
        });
        return new Roles(held, enabled, closure(enabled, grantedTo), direct, grantedTo);
    }

    /**
     * @param start roles in force directly
     * @param grantedTo for a role, the roles granted to it
     * @return start and every role reachable from it
     */
    static Set<String> closure(Set<String> start, Map<String, Set<String>> grantedTo) {
        Set<String> seen = new TreeSet<>(start);
        Deque<String> todo = new ArrayDeque<>(start);
        while (!todo.isEmpty()) {
            for (String r : grantedTo.getOrDefault(todo.pop(), Set.of())) {
                if (seen.add(r)) {
                    todo.push(r);
                }
            }
        }
        return seen;
    }

    /**
     * The statement that makes a role an account's default role (in force at sign-in). MariaDB: {@code SET DEFAULT
     * ROLE r FOR u} (mariadb.com/kb/en/set-default-role/); MySQL: {@code SET DEFAULT ROLE r TO u}
     * (refman/8.4/en/set-default-role.html). Neither server accepts the other's.
     *
     * @param role the role name, unquoted
     * @param account the account as GRANT names it, e.g. {@code 'alice'@'%'}
     */
    public String setDefaultRole(String role, String account) {
        return "SET DEFAULT ROLE " + role + (this == MARIADB ? " FOR " : " TO ") + account;
    }

    /**
     * The statements that list the privileges of this session, one GRANT per row. MySQL: {@code SHOW GRANTS} shows
     * an account's own grants, and the privileges of its roles only when they are named with {@code USING}
     * (refman/8.4/en/show-grants.html). MariaDB has no USING (mariadb.com/kb/en/show-grants/).
     *
     * @param roles the session's roles
     */
    public List<String> showGrants(Roles roles) {
        List<String> out = new ArrayList<>();
        if (this == MYSQL) {
            out.add("SHOW GRANTS FOR CURRENT_USER()" + (roles.enabled().isEmpty() ? ""
                    : " USING " + roles.enabled().stream().map(SqlDialect::quote).collect(Collectors.joining(", "))));
        } else {
            // Without FOR, MariaDB lists the account's grants, those of the role in force and of every role granted
            // to it, and PUBLIC's (seen on 10.11); FOR a role granted through another role is refused.
            out.add("SHOW GRANTS");
        }
        return out;
    }

    /**
     * One privilege {@code migrate} needs.
     *
     * @param anyOf privileges as SHOW GRANTS prints them, any one of which will do
     * @param global true when only a grant ON *.* counts; otherwise one on the schema counts too
     * @param why what needs it, for the message
     */
    public record Need(List<String> anyOf, boolean global, String why) {
    }

    /**
     * What the account that runs {@code migrate} must hold (docs/dba-guide.md, "Setting up a schema"). The migrations create and change
     * tables and indexes, triggers and stored procedures, create the console roles, grant each role to the next
     * and grant the roles on the schema, which needs GRANT OPTION and every privilege granted (SELECT, INSERT,
     * UPDATE, EXECUTE). MariaDB: CREATE ROLE needs CREATE USER and makes its creator the role's administrator
     * (mariadb.com/kb/en/create-role/). MySQL: CREATE ROLE needs CREATE ROLE or CREATE USER and does not make the
     * creator an administrator, so granting a role needs ROLE_ADMIN or SUPER (refman/8.4/en/grant.html, "Granting
     * Roles"). On both, with binary logging on and log_bin_trust_function_creators off, creating a trigger needs
     * SUPER (refman/8.4/en/stored-programs-logging.html; mariadb.com/kb/en/binary-logging-of-stored-routines/).
     *
     * @param creatorsNeedSuper true when the server logs binary and does not trust function creators
     */
    public List<Need> migrateNeeds(boolean creatorsNeedSuper) {
        List<Need> needs = new ArrayList<>();
        String granted = "the console roles are granted it on the schema";
        needs.add(new Need(List.of("SELECT"), false, granted));
        needs.add(new Need(List.of("INSERT"), false, granted));
        needs.add(new Need(List.of("UPDATE"), false, granted));
        needs.add(new Need(List.of("CREATE"), false, "the migrations create tables"));
        needs.add(new Need(List.of("ALTER"), false, "the migrations change tables"));
        needs.add(new Need(List.of("INDEX"), false, "the migrations add and drop indexes"));
        needs.add(new Need(List.of("TRIGGER"), false, "the migrations create triggers"));
        needs.add(new Need(List.of("CREATE ROUTINE"), false, "the migrations create stored procedures"));
        needs.add(new Need(List.of("ALTER ROUTINE"), false, "the migrations replace stored procedures"));
        needs.add(new Need(List.of("EXECUTE"), false, "the console roles are granted EXECUTE on the stored procedures"));
        needs.add(new Need(List.of("GRANT OPTION"), false, "the migrations grant the console roles on the schema"));
        if (this == MARIADB) {
            needs.add(new Need(List.of("CREATE USER"), true, "the migrations create the console roles (CREATE ROLE)"));
        } else {
            needs.add(new Need(List.of("CREATE ROLE", "CREATE USER"), true, "the migrations create the console roles"));
            needs.add(new Need(List.of("ROLE_ADMIN", "SUPER"), true, "the migrations grant each console role to the next, "
                    + "and on MySQL creating a role does not make its creator the role's administrator"));
        }
        if (creatorsNeedSuper) {
            needs.add(new Need(List.of("SUPER"), true, "binary logging is on and log_bin_trust_function_creators is OFF, so "
                    + "creating a trigger needs SUPER (or the server's administrator sets log_bin_trust_function_creators=ON)"));
        }
        return needs;
    }

    /**
     * MariaDB lets only a role's administrators grant it (WITH ADMIN OPTION; its creator is one), whatever global
     * privileges an account has (tried on 10.11: ALL PRIVILEGES ON *.* WITH GRANT OPTION was refused, error 1698).
     * MySQL lets ROLE_ADMIN grant any role.
     *
     * @return the query listing the console roles that exist already, which the migrating account must administer;
     *     null where a global privilege suffices
     */
    public String existingConsoleRolesQuery() {
        return this == MARIADB ? "SELECT User FROM mysql.user WHERE is_role = 'Y' AND User LIKE 'order\\_console\\_%'" : null;
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /**
     * The start of an EXPLAIN whose answer is the tabular plan, one row per table access with the columns
     * {@code key}, {@code rows} and {@code Extra}. MySQL 8.3+ shows TREE or JSON instead when the server's
     * {@code explain_format} says so (refman/8.4/en/explain.html), so it is asked for TRADITIONAL; MariaDB has
     * only the tabular default and JSON, and refuses {@code FORMAT=TRADITIONAL} (mariadb.com/kb/en/explain/).
     */
    public String explainTabular() {
        return this == MARIADB ? "EXPLAIN" : "EXPLAIN FORMAT=TRADITIONAL";
    }

    /**
     * A query for one global status counter by name (one parameter, the name in capitals), answering its value.
     * MySQL 8 removed {@code information_schema.GLOBAL_STATUS} (refman/8.4/en/performance-schema-status-tables.html:
     * {@code performance_schema.global_status}); MariaDB keeps it, and its Performance Schema is off by default.
     */
    public String globalStatusQuery() {
        return this == MARIADB
                ? "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = ?"
                : "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = ?";
    }
}
