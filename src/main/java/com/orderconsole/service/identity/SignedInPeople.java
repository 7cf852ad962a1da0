package com.orderconsole.service.identity;

import com.orderconsole.store.Database;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The people {@code serve} has recorded in MySQL ({@code sso_person}): each verified person is recorded once, before their
 * first request acts, so the follower finds their name among the known actors when their first move reaches it, and a name
 * taken by one subject is refused to another. This serve remembers whom it recorded; MySQL is asked once per person.
 */
public final class SignedInPeople {
    private final Database db;
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();

    /** Built by the wiring ({@code app.Services}). */
    public SignedInPeople(Database db) {
        this.db = db;
    }

    /** @return true when this serve recorded the person already (nothing to write) */
    public boolean recorded(Person p) {
        return recorded.contains(key(p));
    }

    /**
     * Records the person unless this serve did already.
     *
     * @param p a verified person
     * @throws TokenRefusedException {@code INVALID} when their name is recorded for another person of the provider,
     *     {@code UNAVAILABLE} when MySQL did not answer (nothing acted in their name)
     */
    public void record(Person p) {
        String key = key(p);
        if (recorded.contains(key)) {
            return;
        }
        try {
            db.inTransaction(t -> {
                t.accounts().recordPerson(p.actor(), p.issuer(), p.subject());
                return null;
            });
        } catch (RuntimeException e) {
            String words = com.orderconsole.domain.Failures.message(e);
            if (words.contains("recorded for another person")) {
                throw new TokenRefusedException(TokenRefusedException.Kind.INVALID, "the name '" + p.actor() + "' is recorded in "
                        + "the history for another person of the identity provider; ask its administrator to tell you apart "
                        + "(preferred_username or email)");
            }
            throw new TokenRefusedException(TokenRefusedException.Kind.UNAVAILABLE, "MySQL did not record who you are ("
                    + words + "), and nothing is done in a name MySQL does not know: send the request again shortly");
        }
        recorded.add(key);
    }

    private static String key(Person p) {
        return p.actor() + "\n" + p.issuer() + "\n" + p.subject();
    }
}
