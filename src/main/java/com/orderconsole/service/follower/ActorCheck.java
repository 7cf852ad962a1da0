package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.OrderStore;

import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The actor check, on servers that check accounts: every entry must name a login the database saw sign in
 * ({@code console_account}, stamped by the database), or be the cancel sweeper's one move; an API client's entry must be
 * dated before every serve refuses the client's token. A well-formed entry XADDed in a made-up name, or in a revoked
 * client's name, is set aside as an UNKNOWN_ACTOR dead letter.
 */
final class ActorCheck {
    /**
     * How long after an API client's revocation (MySQL's clock on a server that checks accounts, the revoking process's
     * otherwise) an entry in its name (Redis' clock) may still be dated. A serve that accepted the token before it learnt
     * of the revocation runs the transition right away: every serve refuses the token within
     * {@code ApiClients.REVOCATION_BOUND} (5 s: a refresh every second, plus a read that takes up to its timeout), and the
     * request it accepted last runs its script within the command timeout (2 s by default); the other 3 s are the
     * difference between the clocks of MySQL (or the revoking process) and Redis that the product tolerates, the same
     * slack it gives an entry dated ahead of Redis' clock.
     */
    static final long AFTER_REVOCATION_MS = 10_000;

    /** Logins seen in console_account: only added to (a login is never removed). */
    private final Set<String> knownActors = ConcurrentHashMap.newKeySet();

    /**
     * The logins are read once and again only when a name is new; the revocations once per batch holding an API
     * client's entry.
     *
     * @return stream ids of the entries set aside as UNKNOWN_ACTOR dead letters
     */
    Set<String> setAsideUnknown(Batch b) {
        Set<String> ids = new HashSet<>();
        boolean reread = false;
        Map<String, Long> revoked = null; // read once, only for a batch with an API client's entry
        for (OutboxEntry oe : b.entries) {
            if (!b.judged(oe)) {
                continue;
            }
            HistoryEntry e = oe.entry();
            String why = null;
            if (Operator.CANCEL_SWEEPER.equals(e.actor())) {
                // Its only move is WAIT_PAY → CANCELLED; a refused attempt at it is history too (two sweepers race for a
                // due order, the loser's cancel is refused -3 from CANCELLED).
                boolean itsMove = e.code() == ResultCode.APPLIED ? e.from() == OrderStatus.WAIT_PAY && e.to() == OrderStatus.CANCELLED
                        : e.to() == OrderStatus.CANCELLED;
                if (!itsMove) {
                    why = "it names the cancel sweeper, whose only move is WAIT_PAY → CANCELLED, for "
                            + (e.code() == ResultCode.APPLIED ? "a move" : "an attempt") + " from " + e.from() + " to " + e.to();
                }
            } else if (!knownActors.contains(e.actor())) {
                if (!reread) {
                    knownActors.addAll(b.t.accounts().logins());
                    reread = true;
                }
                if (!knownActors.contains(e.actor())) {
                    why = "its actor '" + e.actor() + "' never signed in to this database, so no console wrote it";
                }
            }
            if (why == null && e.actor().startsWith(OrderStore.API_ACTOR)) {
                if (revoked == null) {
                    revoked = b.t.accounts().apiRevocations();
                }
                Long at = revoked.get(e.actor());
                if (at != null && e.atMs() > at + AFTER_REVOCATION_MS) {
                    why = "its actor '" + e.actor() + "' is an API client revoked at " + Instant.ofEpochMilli(at)
                            + ", and the entry is dated " + Instant.ofEpochMilli(e.atMs()) + ", after every serve refuses its token";
                }
            }
            if (why != null) {
                ids.add(oe.streamId());
                b.setAside(DeadLetterRow.UNKNOWN_ACTOR, oe, e.orderId(), "outbox entry not applied: " + why);
            }
        }
        return ids;
    }
}
