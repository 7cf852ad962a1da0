package com.orderconsole.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks, before {@code migrate} changes anything, that its account holds what the migrations need
 * ({@link SqlDialect#migrateNeeds}): the grants of {@code CURRENT_USER()} and of the roles in force, as
 * {@code SHOW GRANTS} lists them. Only grants ON *.* and on the schema count (a table-level grant cannot create
 * a table); a schema pattern with {@code _} or {@code %} counts when it matches the schema, as on the server.
 */
final class MigrationPrivileges {
    /** MySQL/MariaDB error: the server runs with an option that forbids the statement (--skip-grant-tables). */
    private static final int ER_OPTION_PREVENTS_STATEMENT = 1290;
    /** MySQL/MariaDB errors: access denied to a database, to a table. */
    private static final int ER_DB_ACCESS_DENIED = 1044;
    private static final int ER_TABLE_ACCESS_DENIED = 1142;
    /** "GRANT privileges ON scope TO grantee [... WITH GRANT OPTION]"; role grants have no ON. */
    private static final Pattern GRANT = Pattern.compile("^GRANT (.+?) ON (\\S+) TO .*?( WITH GRANT OPTION)?$");

    private MigrationPrivileges() {
    }

    /**
     * Versions of the migrations that create triggers. A test reads every migration and fails for one that creates a
     * trigger and is not listed here.
     */
    static final Set<String> TRIGGER_MIGRATIONS = Set.of("38", "40", "47");

    /**
     * Every {@code migrate} makes the triggers of {@link #TRIGGER_MIGRATIONS} anew under the migrating account
     * ({@code RemakeRoutines}, so that losing the account that made them is recoverable), so every run creates
     * triggers, pending migrations or not.
     *
     * @param binaryLogging the server's {@code @@log_bin}
     * @param trustCreators its {@code @@log_bin_trust_function_creators}
     * @return true when the run needs SUPER: it creates triggers on a server that logs binary and does not trust creators
     */
    static boolean superNeeded(boolean binaryLogging, boolean trustCreators) {
        return binaryLogging && !trustCreators;
    }

    /**
     * @param c a connection of the migrating account, on the schema to migrate
     * @return what is missing, one line each ("CREATE ROUTINE on `orders`: the migrations create stored procedures");
     *     empty when nothing is, or when the server checks no privileges (runs without grant tables)
     */
    static List<String> missing(Connection c) throws SQLException {
        String version = SqlDialect.version(c);
        SqlDialect dialect = SqlDialect.of(version);
        List<String> missing = new ArrayList<>();
        if (!dialect.supports(version)) {
            missing.add(dialect.product() + " " + dialect.minimumVersion() + " or later: this server is " + version);
        }
        try (Statement st = c.createStatement()) {
            String schema;
            boolean creatorsNeedSuper;
            try (ResultSet rs = st.executeQuery("SELECT DATABASE(), @@log_bin, @@log_bin_trust_function_creators")) {
                rs.next();
                schema = rs.getString(1);
                creatorsNeedSuper = superNeeded(rs.getBoolean(2), rs.getBoolean(3));
            }
            if (schema == null) {
                missing.add("a schema in the JDBC URL (jdbc:mysql://host:port/orders)");
                return missing;
            }
            Set<String> global = new HashSet<>();
            Set<String> onSchema = new HashSet<>();
            try {
                for (String show : dialect.showGrants(SqlDialect.rolesInForce(st))) {
                    try (ResultSet rs = st.executeQuery(show)) {
                        while (rs.next()) {
                            read(rs.getString(1), schema, global, onSchema);
                        }
                    }
                }
            } catch (SQLException e) {
                if (e.getErrorCode() == ER_OPTION_PREVENTS_STATEMENT) {
                    return missing;
                }
                throw e;
            }
            for (SqlDialect.Need need : dialect.migrateNeeds(creatorsNeedSuper)) {
                boolean held = need.anyOf().stream().anyMatch(p -> holds(global, p) || !need.global() && holds(onSchema, p));
                if (!held) {
                    missing.add(String.join(" or ", need.anyOf()) + (need.global() ? " ON *.*" : " on `" + schema + "`")
                            + ": " + need.why());
                }
            }
            missing.addAll(rolesNotAdministered(st, dialect, SqlDialect.rolesInForce(st)));
        }
        return missing;
    }

    /**
     * On MariaDB, console roles another account created can be granted by their administrators only. Which roles
     * exist can be read only with SELECT on mysql.user; without it this is not checked, and V20 says it.
     */
    private static List<String> rolesNotAdministered(Statement st, SqlDialect dialect, SqlDialect.Roles roles) throws SQLException {
        String query = dialect.existingConsoleRolesQuery();
        List<String> missing = new ArrayList<>();
        if (query == null) {
            return missing;
        }
        Set<String> administered = new HashSet<>();
        try (ResultSet rs = st.executeQuery("SELECT ROLE_NAME FROM information_schema.APPLICABLE_ROLES WHERE IS_GRANTABLE = 'YES'")) {
            while (rs.next()) {
                administered.add(rs.getString(1));
            }
        }
        String account;
        try (ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
            rs.next();
            String[] parts = rs.getString(1).split("@", 2);
            account = "'" + parts[0].replace("'", "''") + "'@'" + (parts.length > 1 ? parts[1] : "%") + "'";
        }
        try (ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                String role = rs.getString(1);
                if (ConsoleRoles.role(role).isPresent() && !administered.contains(role)) {
                    missing.add("ADMIN OPTION on role " + role + ": the role exists already and " + dialect.product()
                            + " lets only its administrators grant it (GRANT " + role + " TO " + account + " WITH ADMIN OPTION)");
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_DB_ACCESS_DENIED && e.getErrorCode() != ER_TABLE_ACCESS_DENIED) {
                throw e;
            }
        }
        return missing;
    }

    /** Adds the privileges of one SHOW GRANTS line to the global ones or the schema's, when it is about either. */
    static void read(String line, String schema, Set<String> global, Set<String> onSchema) {
        Matcher m = GRANT.matcher(line.trim());
        if (!m.matches()) {
            return;
        }
        Set<String> into;
        String scope = m.group(2);
        if (scope.equals("*.*")) {
            into = global;
        } else if (scope.endsWith(".*") && matchesSchema(scope.substring(0, scope.length() - 2), schema)) {
            into = onSchema;
        } else {
            return;
        }
        for (String p : m.group(1).split(",")) {
            String name = p.trim().toUpperCase(Locale.ROOT);
            into.add(name.equals("ALL PRIVILEGES") ? "ALL" : name);
        }
        if (m.group(3) != null) {
            into.add("GRANT OPTION");
        }
    }

    /** @return true when a SHOW GRANTS database name (quoted, possibly a LIKE pattern) covers the schema */
    static boolean matchesSchema(String quoted, String schema) {
        String pattern = quoted.replaceAll("^[`'\"]|[`'\"]$", "");
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (ch == '_') {
                regex.append('.');
            } else if (ch == '%') {
                regex.append(".*");
            } else {
                regex.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return schema.matches(regex.toString());
    }

    /** ALL PRIVILEGES holds every static privilege but GRANT OPTION, which SHOW GRANTS prints apart. */
    private static boolean holds(Set<String> privileges, String p) {
        return privileges.contains(p) || privileges.contains("ALL") && !p.equals("GRANT OPTION") && !isDynamic(p);
    }

    /** MySQL's dynamic privileges (ROLE_ADMIN …) are not part of ALL PRIVILEGES as SHOW GRANTS prints it. */
    private static boolean isDynamic(String privilege) {
        return privilege.contains("_");
    }
}
