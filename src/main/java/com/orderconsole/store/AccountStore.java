package com.orderconsole.store;

import java.util.HashSet;
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

    /** @return the logins that ran the MySQL follower (they held order_console_follower then) */
    public Set<String> followers() {
        return new HashSet<>(m.followers());
    }
}
