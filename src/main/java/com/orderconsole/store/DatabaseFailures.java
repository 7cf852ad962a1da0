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
