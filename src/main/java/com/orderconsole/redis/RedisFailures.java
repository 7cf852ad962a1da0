package com.orderconsole.redis;

import com.orderconsole.domain.Failures;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.RedisProtocolException;

import java.io.IOException;
import java.time.Duration;

/**
 * Lettuce's failures in words a person can act on: a failed connect (wrong port, wrong password, none given) and a
 * failed command (timeout, ACL refusal, connection lost). Split from {@link RedisConnection} so that connecting (see
 * {@link RedisConnector}) and running commands tell the same failures the same way from one place.
 */
final class RedisFailures {
    private RedisFailures() {
    }

    /**
     * Words for a failed connection: Lettuce's and the server's own texts ("Invalid first byte", WRONGPASS)
     * tell a person neither what is wrong nor what to change.
     *
     * @param e what Lettuce threw while connecting
     * @param where "host:port"
     * @return the exception to throw: a {@link RedisRefusedException} when the server refused the credentials,
     *     else a {@link RedisUnavailableException}
     */
    static RuntimeException connectFailure(RedisException e, String where) {
        String root = String.valueOf(rootMessage(e));
        boolean notResp = false;
        for (Throwable t = e; t != null && !notResp; t = t.getCause() == t ? null : t.getCause()) {
            // "RedisHandshakeHandler not registered": the other server spoke first (MySQL's greeting) and the channel
            // failed before Lettuce's handshake began, a race with "Invalid first byte" (seen once in CI, 2026-12-01).
            String m = String.valueOf(t.getMessage());
            notResp = t instanceof RedisProtocolException || m.contains("Invalid first byte")
                    || m.contains("RedisHandshakeHandler not registered");
        }
        if (notResp) {
            return new RedisUnavailableException("the server at " + where + " does not speak the Redis protocol (another "
                    + "kind of server, e.g. MySQL, listens there): is the Redis URI (--redis, or the profile's redis) pointing at "
                    + "the right port?", e);
        }
        if (root.startsWith("WRONGPASS") || root.contains("invalid username-password pair") || root.contains("invalid password")) {
            return new RedisRefusedException("Redis at " + where + " refused the user name or password of the Redis URI "
                    + "(wrong password, unknown or disabled user): check the user and password given for Redis", e);
        }
        if (root.startsWith("NOAUTH")) {
            return new RedisRefusedException("Redis at " + where + " asks for a password and none was given: give the Redis "
                    + "user and password (redis://user:password@host:port, or the profile's redis-user and redis-password-env)", e);
        }
        if (root.contains("without any password configured") || root.contains("no password is set")) {
            return new RedisRefusedException("Redis at " + where + " has no password set, but a password was given for it: "
                    + "leave the password out of the Redis URI", e);
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof io.netty.channel.ConnectTimeoutException || t instanceof java.net.NoRouteToHostException
                    || t instanceof java.net.UnknownHostException) {
                return new RedisUnavailableException("Redis at " + where + " is unreachable: " + (t instanceof java.net.UnknownHostException
                        ? "its host name is not known" : "no answer to the connection within the connect timeout (a host that is down, "
                        + "or a firewall)"), e);
            }
            if (t instanceof java.net.ConnectException) {
                return new RedisUnavailableException("Redis at " + where + " refused the connection: nothing listens on that port "
                        + "(is Redis running there, and is the Redis URI's host and port right?)", e);
            }
        }
        return new RedisUnavailableException("cannot connect to Redis at " + where + ": " + root, e);
    }

    /**
     * Maps a failed command to an exception with a message for people.
     *
     * @param cause what the command's future failed with
     * @param what the call in words, e.g. "transition o-1"
     * @param where "host:port" of the server
     * @param timeout the command timeout, for the message
     * @return a {@link RedisUnavailableException} (no answer, connection lost), a {@link RedisRefusedException} (ACL),
     *     or the server's own error
     */
    static RuntimeException command(Throwable cause, String what, String where, Duration timeout) {
        cause = Failures.unwrap(cause);
        if (cause instanceof RedisCommandTimeoutException) {
            return new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", cause);
        }
        if (cause instanceof RedisCommandExecutionException re) {
            if (re.getMessage() != null && re.getMessage().startsWith("NOPERM")) {
                return new RedisRefusedException("Redis at " + where + " refused " + what
                        + ": the Redis user of this session may not run it (its ACL does not allow it)", re);
            }
            return re; // the server answered with an error: not an availability problem
        }
        if (cause instanceof RedisException || cause instanceof IOException) {
            // Connection refused, reset, closed or disconnected while the command was in flight. Lettuce's and the
            // system's texts ("Currently not connected. Commands are rejected.") stay in the cause, for the log.
            return new RedisUnavailableException("Redis at " + where + " is unreachable (" + what + "): the connection to it "
                    + "was lost or refused", cause);
        }
        if (cause instanceof RuntimeException re) {
            return re;
        }
        return new RedisUnavailableException("Redis " + what + " failed: " + rootMessage(cause), cause);
    }

    static String rootMessage(Throwable t) {
        return Failures.message(Failures.root(t));
    }
}
