package com.orderconsole.store;

/** One row of {@code api_client} (V45): a service that calls the HTTP API of {@code serve}. */
public final class ApiClientRow {
    /** Acts as {@code api:<name>}. */
    public String name;
    /** "support" or "ops". */
    public String role;
    /** SHA-256 of the bearer token, 64 lowercase hex digits. */
    public String tokenSha256;
    public long addedAtMs;
    /** The login that added it (the admin). */
    public String addedBy;
    /** Null while the client is in force. */
    public Long revokedAtMs;

    public ApiClientRow() {
    }

    public ApiClientRow(String name, String role, String tokenSha256, long addedAtMs, String addedBy, Long revokedAtMs) {
        this.name = name;
        this.role = role;
        this.tokenSha256 = tokenSha256;
        this.addedAtMs = addedAtMs;
        this.addedBy = addedBy;
        this.revokedAtMs = revokedAtMs;
    }
}
