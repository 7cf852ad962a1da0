package com.orderconsole.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Keeps libraries from repeating, with a Java stack trace, what the product already says once in words.
 *
 * <p>HikariCP warns for every pooled connection MySQL dropped ("Connection … marked as broken because of
 * SQLSTATE(08S01)") with the driver's whole trace, about 65 lines each: a MySQL outage filled the
 * {@code serve} log with ~268 lines while the MySQL follower already logs it as one line (what is down,
 * that transitions wait in the Redis outbox, retrying). A MySQL that hangs instead (stopped, not refusing) made
 * it warn "Failed to validate connection … Possibly consider using a shorter maxLifetime value." for each pooled
 * connection: advice about the pool's settings, when the server is what stopped. Hikari's own errors still show.
 * A level set for either logger in a logback configuration wins over this.
 */
final class LibraryLogs {
    /** HikariCP's per-connection "marked as broken" warning. */
    static final String HIKARI_BROKEN_CONNECTION = "com.zaxxer.hikari.pool.ProxyConnection";
    /** HikariCP's per-connection "Failed to validate connection" warning. */
    static final String HIKARI_VALIDATION = "com.zaxxer.hikari.pool.PoolBase";

    private LibraryLogs() {
    }

    /** Applies the levels; idempotent. Does nothing under another SLF4J binding (it has its own configuration). */
    static void quiet() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
            for (String name : new String[]{HIKARI_BROKEN_CONNECTION, HIKARI_VALIDATION}) {
                ch.qos.logback.classic.Logger hikari = ctx.getLogger(name);
                if (hikari.getLevel() == null) {
                    hikari.setLevel(Level.ERROR);
                }
            }
        }
    }
}
