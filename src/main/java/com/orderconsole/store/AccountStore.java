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
    private final org.apache.ibatis.session.SqlSession session;
    private final boolean stamped;

    AccountStore(AccountMapper m, org.apache.ibatis.session.SqlSession session, boolean stamped) {
        this.m = m;
        this.session = session;
        this.stamped = stamped;
    }

    /**
     * Records a person serve verified (V49), once: on a server that checks accounts through the procedure only serve's
     * account may call, else directly.
     *
     * @param actor the person's actor name, {@code sso:<name> via <client>}
     * @param issuer the identity provider's issuer URL
     * @param subject the person's {@code sub} there
     * @throws IllegalStateException in words when the name is recorded for another person (another subject or issuer)
     */
    public void recordPerson(String actor, String issuer, String subject) {
        if (stamped) {
            Procedures.recordPerson(session.getConnection(), actor, issuer, subject);
            return;
        }
        m.insertPerson(actor, issuer, subject, System.currentTimeMillis());
        if (m.personIs(actor, issuer, subject) != 1) {
            throw new IllegalStateException("cannot record the person in MySQL: this name is recorded for another person of the "
                    + "identity provider");
        }
    }

    /** @return the actor names of the people serve recorded (V49) */
    public Set<String> people() {
        return new HashSet<>(m.people());
    }

    /**
     * @return every login that signed in to the console or ran the follower, {@code api:<name>} of every API client
     *     (revoked ones too: an entry serve accepted before the revocation may still wait in the outbox), and every person
     *     serve recorded ({@code sso:<name> via <client>})
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
