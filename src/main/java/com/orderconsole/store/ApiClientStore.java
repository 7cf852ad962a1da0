package com.orderconsole.store;

import org.apache.ibatis.session.SqlSession;

import java.util.List;

/**
 * The clients of the HTTP API ({@code api_client}, V45). In a person's session (a server that checks accounts) adding and
 * revoking go through V45's procedures, which stamp the admin's login and append the audit row in the same call; on
 * local servers (one owner) the row and the audit row are written directly by the caller's unit of work.
 */
public final class ApiClientStore {
    private final ApiClientMapper m;
    private final SqlSession session;
    private final boolean stamped;

    ApiClientStore(ApiClientMapper m, SqlSession session, boolean stamped) {
        this.m = m;
        this.session = session;
        this.stamped = stamped;
    }

    /** @return every client, revoked ones included, by name */
    public List<ApiClientRow> all() {
        return m.all();
    }

    /** @return true when this session writes through the procedures, which record the audit row themselves */
    public boolean auditsItself() {
        return stamped;
    }

    /**
     * Registers a client.
     *
     * @param row name, role, token hash, time and adding account (time and account are the database's own when stamped)
     * @throws RuntimeException from the database when the name (or, improbably, the token hash) exists
     */
    public void add(ApiClientRow row) {
        if (stamped) {
            Procedures.addApiClient(session.getConnection(), row.name, row.role, row.tokenSha256);
            return;
        }
        m.insert(row);
    }

    /**
     * Revokes a client (its row stays, with the time).
     *
     * @return true when it was in force and is revoked now
     */
    public boolean revoke(String name, long atMs) {
        if (stamped) {
            boolean inForce = m.all().stream().anyMatch(r -> r.name.equals(name) && r.revokedAtMs == null);
            Procedures.revokeApiClient(session.getConnection(), name);
            return inForce;
        }
        return m.revoke(name, atMs) == 1;
    }
}
