package com.orderconsole.store;

import com.orderconsole.domain.Role;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who a database account is, as the server authenticated it, and which console roles it holds
 * ({@link ConsoleRoles}). Works on MariaDB 10.6+ and MySQL 8.0.22+ ({@code information_schema.APPLICABLE_ROLES}
 * and {@code ENABLED_ROLES}, read as {@link SqlDialect#rolesInForce} says).
 */
public final class DatabaseAccounts {
    /** MySQL/MariaDB error: access denied for user (wrong password or no such account). */
    private static final int ER_ACCESS_DENIED = 1045;
    /**
     * MariaDB error: access denied, "no password" flavour. MariaDB answers an unknown user by pretending to authenticate
     * it like some existing entry, and when that entry is a role (no password) the refusal comes as 1698: seen once the
     * schema had a fifth role (order_console_follower), for a user who does not exist.
     */
    private static final int ER_ACCESS_DENIED_NO_PASSWORD = 1698;
    /**
     * A Connector/J URL: plain, DNS SRV ({@code jdbc:mysql+srv://}) or with several hosts
     * ({@code jdbc:mysql:replication://}, {@code jdbc:mysql:loadbalance://}); the host part may list hosts with commas.
     */
    private static final Pattern URL = Pattern.compile("^(jdbc:mysql(?:\\+srv)?(?::[a-z]+)?://[^/?]*)(?:/[^?]*)?(\\?.*)?$");

    private DatabaseAccounts() {
    }

    /**
     * A signed-in account.
     *
     * @param name the account name the server authenticated ({@code CURRENT_USER()} without the host)
     * @param host the host part of the account, e.g. {@code %}
     * @param held the highest console role the account holds, directly or through other roles; null for none
     * @param active the highest console role in force when the account signs in (its default role and the
     *     roles granted to that); null for none
     * @param defaultRole the role granted to the account that carries {@code held} (it itself, or e.g. a team's role
     *     granted it): what {@code SET DEFAULT ROLE} must name for {@code held} to be in force; null when none is held
     */
    public record Account(String name, String host, Role held, Role active, String defaultRole) {
        /** @return the account as GRANT statements name it, e.g. {@code 'alice'@'%'} */
        public String grantee() {
            return "'" + name.replace("'", "''") + "'@'" + host + "'";
        }
    }

    /**
     * Signs in once, without choosing a schema (an account whose roles are not in force could not open
     * it), reads the account and its roles, and disconnects.
     *
     * @param jdbcUrl JDBC URL of the orders schema
     * @param user the account name as typed
     * @param password its password ("" for none)
     * @param timeout connect and read timeout
     * @return the account
     * @throws AccountRefusedException when the server refuses the account, or runs without access control
     * @throws DatabaseUnavailableException when the server cannot be reached
     */
    public static Account signIn(String jdbcUrl, String user, String password, Duration timeout) {
        String where = DatabaseFailures.describe(jdbcUrl);
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        // Refused or unanswered at the connect: at once, in words; a server that accepted it has the sign-in allowance.
        DatabaseFailures.probe(jdbcUrl, timeout);
        props.setProperty("connectTimeout", Long.toString(DatabaseFailures.signInAllowance(timeout).toMillis()));
        props.setProperty("socketTimeout", Long.toString(Math.max(timeout.toMillis() * 5, 10_000)));
        try (Connection c = DriverManager.getConnection(serverUrl(jdbcUrl), props); Statement st = c.createStatement()) {
            String current;
            try (ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
                rs.next();
                current = rs.getString(1);
            }
            int at = current == null ? -1 : current.lastIndexOf('@');
            String name = at < 0 ? "" : current.substring(0, at);
            if (name.isEmpty() || name.equals("skip-grants user")) {
                throw new AccountRefusedException("the database at " + where + " does not check accounts (it runs "
                        + "without grant tables), so it cannot tell who signs in; use a server with access control", null);
            }
            SqlDialect.Roles roles = SqlDialect.rolesInForce(st);
            Role held = highest(roles.held());
            return new Account(name, current.substring(at + 1), held, highest(roles.inForce()),
                    held == null ? null : roles.carrying(ConsoleRoles.name(held)));
        } catch (SQLException e) {
            if (DatabaseFailures.publicKeyRefused(e)) {
                throw new AccountRefusedException("the database at " + where + " " + DatabaseFailures.publicKeyWords(), e);
            }
            if (e.getErrorCode() == ER_ACCESS_DENIED || e.getErrorCode() == ER_ACCESS_DENIED_NO_PASSWORD) {
                throw new AccountRefusedException("the database at " + where + " refused account '" + user + "': "
                        + (password.isEmpty() ? "no password was given" : "wrong password, or no such account"), e);
            }
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) { // SQL state class 08: connection exception
                DatabaseUnavailableException words = DatabaseFailures.signInFailure(where, e, timeout);
                throw words.getMessage().startsWith("MySQL at ") ? words : new DatabaseUnavailableException("cannot reach the database at "
                        + where + ": " + DatabaseFailures.rootMessage(e), e);
            }
            throw new AccountRefusedException("the database at " + where + " refused account '" + user + "': "
                    + DatabaseFailures.rootMessage(e), e);
        }
    }

    private static Role highest(Set<String> databaseRoles) {
        Optional<Role> best = Optional.empty();
        for (String name : databaseRoles) {
            Optional<Role> r = ConsoleRoles.role(name);
            if (r.isPresent() && best.map(b -> r.get().includes(b)).orElse(true)) {
                best = r;
            }
        }
        return best.orElse(null);
    }

    /** @return the URL without the schema: the server, its host, port and parameters */
    static String serverUrl(String jdbcUrl) {
        Matcher m = URL.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a MySQL JDBC URL of the form jdbc:mysql://host:port/schema: "
                    + DatabaseFailures.describe(jdbcUrl));
        }
        return m.group(1) + "/" + (m.group(2) == null ? "" : m.group(2));
    }
}
