package com.orderconsole.store;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The logins the database has seen sign in ({@code console_account}, V39), as the database itself recorded them: the
 * procedures stamp the calling session's login, and no account writes the table directly. Empty on servers that do not
 * check accounts.
 */
public final class AccountStore {
    private final AccountMapper m;

    AccountStore(AccountMapper m) {
        this.m = m;
    }

    /**
     * @return every login that signed in to the console or ran the follower, and {@code api:<name>} of every API client
     *     (revoked ones too: an entry serve accepted before the revocation may still wait in the outbox)
     */
    public Set<String> logins() {
        return new HashSet<>(m.logins());
    }

    /**
     * @return when each revoked API client was revoked (ms since the epoch), keyed by its actor {@code api:<name>}; clients
     *     in force are absent
     */
    public Map<String, Long> apiRevocations() {
        Map<String, Long> out = new HashMap<>();
        for (Map<String, Object> row : m.revoked()) {
            out.put((String) row.get("actor"), ((Number) row.get("revokedAtMs")).longValue());
        }
        return out;
    }

    /** @return the logins that ran the MySQL follower (they held order_console_follower then) */
    public Set<String> followers() {
        return new HashSet<>(m.followers());
    }
}
