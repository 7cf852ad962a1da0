package com.orderconsole.store;

import org.apache.ibatis.session.SqlSession;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The API's answers kept per client and {@code Idempotency-Key} ({@code api_idempotency}, V48). Each method is one
 * statement on the primary key, so two requests with the same key settle who runs by the key's row alone.
 */
public final class IdempotencyStore {
    /** A key's row: state 0 running, 1 answered, 2 released. */
    public record Kept(String requestSha256, int state, Integer status, byte[] body, long createdAtMs) {
    }

    private final SqlSession session;

    IdempotencyStore(SqlSession session) {
        this.session = session;
    }

    /** @return true when this call took the key (no row was there), false when a row exists */
    public boolean reserve(String client, String key, String requestSha256, long nowMs) {
        return update("INSERT IGNORE INTO api_idempotency (client, idem_key, request_sha256, state, created_at_ms) VALUES (?, ?, ?, 0, ?)",
                client, key, requestSha256, nowMs) == 1;
    }

    /**
     * Takes a key over from a try that released it, or from one still marked running since before {@code staleBeforeMs}
     * (its serve stopped), for a request with the same fingerprint.
     *
     * @return true when this call took it
     */
    public boolean takeOver(String client, String key, String requestSha256, long nowMs, long staleBeforeMs) {
        return update("UPDATE api_idempotency SET state = 0, created_at_ms = ? WHERE client = ? AND idem_key = ? AND request_sha256 = ? "
                + "AND (state = 2 OR (state = 0 AND created_at_ms < ?))", nowMs, client, key, requestSha256, staleBeforeMs) == 1;
    }

    /** @return the key's row, or null */
    public Kept find(String client, String key) {
        try (PreparedStatement ps = session.getConnection().prepareStatement("SELECT request_sha256, state, status, body, created_at_ms "
                + "FROM api_idempotency WHERE client = ? AND idem_key = ?")) {
            ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            ps.setString(1, client);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                int status = rs.getInt(3);
                return new Kept(rs.getString(1), rs.getInt(2), rs.wasNull() ? null : status, rs.getBytes(4), rs.getLong(5));
            } 
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the idempotency key in MySQL: " + DatabaseFailures.rootMessage(e), e);
        }
    }

    /** Keeps the answer of the try that holds the key. */
    public void answered(String client, String key, int status, byte[] body, long nowMs) {
        update("UPDATE api_idempotency SET state = 1, status = ?, body = ?, answered_at_ms = ? WHERE client = ? AND idem_key = ? AND state = 0",
                status, body, nowMs, client, key);
    }

    /** Lets the key be used again: the try that held it failed in a way worth retrying (nothing of it is kept). */
    public void released(String client, String key) {
        update("UPDATE api_idempotency SET state = 2 WHERE client = ? AND idem_key = ? AND state = 0", client, key);
    }

    private int update(String sql, Object... args) {
        try (PreparedStatement ps = session.getConnection().prepareStatement(sql)) {
            ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot keep the idempotency key in MySQL: " + DatabaseFailures.rootMessage(e), e);
        }
    }
}
