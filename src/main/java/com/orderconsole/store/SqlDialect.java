package com.orderconsole.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
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
