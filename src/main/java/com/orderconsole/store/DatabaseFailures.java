package com.orderconsole.store;

import com.orderconsole.domain.Failures;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL and driver failures put into words for people: where a database is (without account or parameters), the one
 * line of a failure worth showing, the MySQL 8 public-key refusal and what to change, and a unit of work's failure as
 * the product's exceptions. Apart from {@link Database}, as {@code redis/RedisFailures} is from the Redis connection.
 */
final class DatabaseFailures {
    /** MySQL/MariaDB: "The user specified as a definer (…) does not exist" (a procedure or trigger outlived its maker). */
    static final int ER_NO_SUCH_USER = 1449;
    /** The way out when the account that ran 'migrate', the definer of the procedures and triggers, was dropped. */
    static final String DEFINER_GONE = "the account that ran 'migrate', which the console's stored procedures and triggers "
            + "run as, no longer exists; a database administrator runs 'order-console migrate' again, which makes them anew "
            + "under the administrator's account (docs/dba-guide.md, setting up a schema)";

    /** MySQL/MariaDB errors: command denied on a table or column, database denied, privilege missing, routine denied. */
    private static final Set<Integer> ACCESS_DENIED = Set.of(1142, 1143, 1044, 1227, 1370);
    private static final Pattern TABLE_DENIED = Pattern.compile("^(\\w+) command denied to user .* for table (\\S+)");

    private DatabaseFailures() {
    }

    /**
     * A failure of a unit of work as the product's exceptions say it: a lost connection is
     * {@link DatabaseUnavailableException}, an access denial {@link DatabaseRefusedException} naming the statement, table
     * and account, any other failed statement {@link DatabaseFailedException} in the server's words (MyBatis' report
     * carries its own markup, the statement and Java class names). Anything else is returned as it is.
     *
     * @param where "host:port/schema" of the server
     * @param account the pool's account, named in a refusal
     * @return the exception to throw in place of {@code e}
     */
    static RuntimeException translate(RuntimeException e, String where, String account) {
        if (e instanceof DatabaseUnavailableException) {
            return e;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof com.mysql.cj.exceptions.CJCommunicationsException
                    || t instanceof com.mysql.cj.jdbc.exceptions.CommunicationsException) {
                return new DatabaseUnavailableException("MySQL at " + where + " is unreachable: " + rootMessage(e), e);
            }
            if (t instanceof SQLException sql && ACCESS_DENIED.contains(sql.getErrorCode())) {
                return new DatabaseRefusedException(refusal(sql.getMessage(), account), e);
            }
            if (t instanceof SQLException sql && sql.getErrorCode() == ER_NO_SUCH_USER) {
                // A trigger or procedure whose definer was dropped: the way out, not the server's words (any statement,
                // the follower's raw ones among them).
                return new DatabaseFailedException("MySQL at " + where + " failed a statement: " + DEFINER_GONE, e);
            }
        }
        if (e instanceof org.apache.ibatis.exceptions.PersistenceException) {
            return new DatabaseFailedException("MySQL at " + where + " failed a statement: " + rootMessage(e), e);
        }
        return e;
    }

    /** @return the server's access-denied message in words: what was refused to which account, and why */
    private static String refusal(String serverMessage, String account) {
        Matcher m = TABLE_DENIED.matcher(serverMessage == null ? "" : serverMessage);
        String what = m.find() ? m.group(1).toUpperCase(Locale.ROOT) + " on table " + m.group(2).replaceAll("[`']", "")
                .replaceFirst("^.*\\.", "") : "this operation";
        return "the database refused " + what + " to account '" + account + "': none of its roles grants it";
    }

    /** @return "host:port/schema" of a JDBC URL, without account, parameters or scheme */
    static String describe(String jdbcUrl) {
        String s = jdbcUrl.replaceFirst("^jdbc:[a-z]+(\\+srv)?(:[a-z]+)?://", "");
        int q = s.indexOf('?');
        if (q >= 0) {
            s = s.substring(0, q);
        }
        int at = s.lastIndexOf('@');
        return at >= 0 ? s.substring(at + 1) : s;
    }

    /** The server's host and port in a JDBC URL of one host ({@code jdbc:mysql://host:port/...}). */
    private static final Pattern ONE_HOST = Pattern.compile("^jdbc:(?:mysql|mariadb)://([^/:?,@\\[\\]]+)(?::(\\d+))?(?:[/?]|$)");

    /** @return how long a server that accepted the connection may take to greet and sign in: at least 30 s */
    static java.time.Duration signInAllowance(java.time.Duration timeout) {
        return timeout.compareTo(java.time.Duration.ofSeconds(30)) > 0 ? timeout : java.time.Duration.ofSeconds(30);
    }

    /**
     * Opens and closes one TCP connection to the server of a one-host JDBC URL before the sign-in, so that a refused
     * connection or a host that does not answer fails at once, in words, within {@code timeout}, and the sign-in that
     * follows may take the {@link #signInAllowance}. Other URLs (several hosts, a socket) are left to the driver.
     *
     * @throws DatabaseUnavailableException when the connection is refused or not answered
     */
    static void probe(String jdbcUrl, java.time.Duration timeout) {
        Matcher m = ONE_HOST.matcher(jdbcUrl);
        if (!m.find()) {
            return;
        }
        int port = m.group(2) == null ? 3306 : Integer.parseInt(m.group(2));
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(m.group(1), port), (int) Math.max(1, timeout.toMillis()));
        } catch (java.io.IOException e) {
            throw signInFailure(describe(jdbcUrl), e, timeout);
        }
    }

    /**
     * Words for a sign-in that failed: a refused connection (nothing listens there) and an unreachable server (no answer
     * to the connect within the timeout) are told from a server that answered and refused or failed the sign-in.
     *
     * @param where "host:port/database"
     * @param e what the pool's sign-in failed with
     * @param timeout the connect timeout
     * @return the exception to throw
     */
    static DatabaseUnavailableException signInFailure(String where, Throwable e, java.time.Duration timeout) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return new DatabaseUnavailableException("MySQL at " + where + " refused the connection: nothing listens on that "
                        + "port (is MySQL running there, and is the JDBC URL's host and port right?)", e);
            }
            if (t instanceof java.net.SocketTimeoutException && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("connect")
                    || t instanceof java.net.NoRouteToHostException || t instanceof java.net.UnknownHostException) {
                return new DatabaseUnavailableException("MySQL at " + where + " is unreachable: "
                        + (t instanceof java.net.UnknownHostException ? "its host name is not known"
                        : "no answer to the connection within " + timeout.toMillis() + " ms (a host that is down, or a firewall)"), e);
            }
        }
        return new DatabaseUnavailableException("cannot open the orders database at " + where + ": " + rootMessage(e), e);
    }

    /** @return true when MySQL refused a row for a duplicate unique key (error 1062) anywhere in the causes */
    static boolean duplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException q && q.getErrorCode() == 1062) {
                return true;
            }
        }
        return false;
    }

    /** @return the first line of the root cause, or what to change where the driver's words would not help */
    static String rootMessage(Throwable t) {
        Throwable r = Failures.root(t);
        if (r instanceof java.sql.SQLException se && se.getErrorCode() == ER_NO_SUCH_USER) {
            return DEFINER_GONE;
        }
        String m = r.getMessage() == null ? r.getClass().getSimpleName() : r.getMessage().lines().findFirst().orElse("");
        if (publicKeyRefused(t)) {
            return "the server " + publicKeyWords();
        }
        Matcher pool = POOL_TIMEOUT.matcher(m);
        if (pool.find()) {
            String wait = String.format(Locale.ROOT, "no connection within %.1f s", Long.parseLong(pool.group(1)) / 1000.0);
            return "0".equals(pool.group(2)) ? wait + " (the server did not answer)"
                    : wait + " (the server did not answer, or all " + pool.group(2) + " in use)";
        }
        return m;
    }

    /**
     * Connector/J's text when MySQL 8's default authentication ({@code caching_sha2_password}) must send the
     * password over a connection without TLS and the URL does not let the driver fetch the server's RSA key.
     */
    static final String PUBLIC_KEY_REFUSED = "Public Key Retrieval is not allowed";

    /**
     * The product does not turn {@code allowPublicKeyRetrieval} on by itself: without TLS a machine in the middle
     * could hand over its own key and read the password (Connector/J reference, "Security":
     * dev.mysql.com/doc/connector-j/en/connector-j-connp-props-security.html).
     *
     * @return true when a failure (or one of its causes) is that refusal
     */
    static boolean publicKeyRefused(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null && c.getMessage().startsWith(PUBLIC_KEY_REFUSED)) {
                return true;
            }
        }
        return false;
    }

    /** @return what to change, in words, after "the server" or "the database at X" */
    static String publicKeyWords() {
        return "needs the password sent over TLS or encrypted with its RSA public key (MySQL 8's caching_sha2_password), "
                + "and this connection has no TLS: use sslMode=REQUIRED in the JDBC URL (best), or give the server's key "
                + "with serverRSAPublicKeyFile=PATH, or add allowPublicKeyRetrieval=true (only on a network you trust: "
                + "a machine in the middle could read the password)";
    }

    /** HikariCP's text when no connection came within the timeout: "pool - Connection is not available, request timed out after 2011ms (total=4, …)". */
    private static final Pattern POOL_TIMEOUT = Pattern.compile("Connection is not available, request timed out after (\\d+)ms \\(total=(\\d+)");
}
