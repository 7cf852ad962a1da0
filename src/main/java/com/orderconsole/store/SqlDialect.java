package com.orderconsole.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
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
     * @param inForce the roles in force in this session: those enabled at sign-in and every role granted to them
     */
    public record Roles(Set<String> held, Set<String> inForce) {
    }

    /**
     * Reads the session's roles the same way on both servers. MariaDB's {@code information_schema.ENABLED_ROLES}
     * lists the roles granted to the enabled ones too (mariadb.com/kb/en/information-schema-enabled_roles-table/);
     * MySQL's lists only the roles activated directly (refman/8.4/en/information-schema-enabled-roles-table.html),
     * so a console role granted to a team's default role was taken for none. The roles granted to roles are read
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
        return new Roles(held, closure(enabled, grantedTo));
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
