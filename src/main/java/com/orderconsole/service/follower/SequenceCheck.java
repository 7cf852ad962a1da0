package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.store.OrderRow;
import com.orderconsole.store.Tables;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether a batch of outbox entries follows MySQL's history (issue 25): a well-formed entry written into a bucket's
 * outbox by hand must not move an order. The follower asks {@link #chainHolds} first (no MySQL read) and
 * {@link #outOfSequence} only when the chain or the guarded UPDATE says MySQL must be read.
 */
final class SequenceCheck {
    /**
     * Payment deadline of a WAIT_PAY row that has none recorded (orders created before deadlines were stored), as
     * OrderCreator rebuilds its queue entry.
     */
    static final long DEFAULT_PAYMENT_TIMEOUT_MS = 30 * 60_000L;
    /**
     * How far an entry's time (its stream id's, Redis's clock) may run ahead of Redis's clock read by the follower: none
     * in practice, the entry was written before it was read. A forger may XADD an explicit id in the future to date a
     * cancel after its deadline; 5 s leaves room for nothing but a clock read on another connection.
     */
    static final long FUTURE_SLACK_MS = 5_000;

    /**
     * How far before its order's creation time (MySQL's {@code created_at_ms}) an entry may be dated: a person's own
     * creation through the procedures may date an order up to a minute after MySQL's clock, and the clocks of MySQL and
     * Redis may differ by {@link EntryClock#AHEAD_MS}.
     */
    static final long CREATION_SLACK_MS = 60_000 + EntryClock.AHEAD_MS;

    private final Supplier<TransitionRules> rules;
    private final LongSupplier redisNowMs;

    /**
     * @param rules the rules in force: an applied move must be one of their edges, or an override an admin recorded
     * @param redisNowMs Redis's clock (TIME), read only for batches holding a sweeper's cancel
     */
    SequenceCheck(Supplier<TransitionRules> rules, LongSupplier redisNowMs) {
        this.rules = rules;
        this.redisNowMs = redisNowMs;
    }

    /**
     * How far from an entry's time (Redis's clock) a rules version's {@code set_at_ms} (the setter's clock, written
     * just before the version reaches Redis) may lie and still count as in force when Redis accepted the entry.
     */
    static final long RULES_SLACK_MS = 5_000;

    /**
     * Was the move an edge of the rules Redis judged it by (issue 33)? Rules changed between Redis accepting a move and
     * the follower applying it made an honest move a dead letter. An entry is judged by the rules in force when Redis
     * accepted it: any archived version in force within {@link #RULES_SLACK_MS} of its time. Asked only for a move the
     * rules in force now do not allow (one MySQL read then), so the usual batch pays nothing.
     */
    private static boolean edgeWhenAccepted(Tables t, HistoryEntry e) {
        if (e.from() == null) {
            return false;
        }
        for (String json : t.rulesArchive().inForceBetween(e.atMs() - RULES_SLACK_MS, e.atMs() + RULES_SLACK_MS)) {
            if (RulesJson.parse(json, 1).allows(e.from(), e.to())) {
                return true;
            }
        }
        return false;
    }

    /** The source the cancel sweeper writes on its cancels ({@code CancelSweeper}); nothing else writes it. */
    static final String SWEEPER_SOURCE = "sweeper";

    /**
     * @return true for an applied entry the follower must check against MySQL's deadline: the cancel sweeper's, and any
     *     that claims its source in another name (a fresh-user trial got one naming serve's own account into MySQL
     *     30 minutes early; the story then told it as the timeout cancel)
     */
    static boolean sweeperCancel(HistoryEntry e) {
        return e.code() == ResultCode.APPLIED && (Operator.CANCEL_SWEEPER.equals(e.actor()) || SWEEPER_SOURCE.equals(e.source()));
    }

    /**
     * The sequence check (issue 25): every entry must follow MySQL's history. transition.lua writes, per order, entries
     * whose from-status is the status the order had and whose version is the version after the call (applied: one
     * more than before; refused: the same), in stream order. A well-formed entry XADDed by hand into the right bucket
     * (the fence and the bucket check let it pass) moved a FINISHED order back to PAID and jumped v6 to v9. Here the
     * batch's orders are read from MySQL in one SELECT and each order's entries are walked from MySQL's status and
     * version on; an entry is set aside as a dead letter (OUT_OF_SEQUENCE, with words) when:
     * <ul>
     * <li>applied with a version other than the order's version + 1 (a jump);</li>
     * <li>its from-status is not the order's status at that version;</li>
     * <li>applied, but no edge of the rules in force (a move out of a terminal status among them), without an override
     *     record in the audit log written by the actor's own account (TransitionService writes it before it runs an
     *     admin's override; since V40 only an account holding admin can: issue 33);</li>
     * <li>the cancel sweeper's cancel dated before the payment deadline MySQL holds, or after Redis's clock (issue 33);</li>
     * <li>refused with a version above the order's (the script writes the version it read);</li>
     * <li>dated more than {@link #CREATION_SLACK_MS} before its order's creation time in MySQL.</li>
     * </ul>
     * Entries at or below MySQL's version are replays or history conflicts, decided as before; orders MySQL lacks are
     * the invented-order check's. Gaps the product itself makes are none: a rebuilt or restored Redis state takes
     * MySQL's status and version, and entries of an older copy read during a restore are at or below them.
     *
     * @return the entries that do not follow, in stream order, each with why in words (the caller sets them aside)
     */
    Map<OutboxEntry, String> outOfSequence(Tables t, List<OutboxEntry> batch, Set<String> recordedBefore, Set<String> only) {
        Set<String> ids = new LinkedHashSet<>();
        for (OutboxEntry e : batch) {
            if (judged(e, recordedBefore, only)) {
                ids.add(e.entry().orderId());
            }
        }
        if (ids.isEmpty()) {
            return Map.of();
        }
        AgainstMySql mysql = new AgainstMySql(t, new ArrayList<>(ids));
        Map<OutboxEntry, String> out = new LinkedHashMap<>();
        for (OutboxEntry oe : batch) {
            if (!judged(oe, recordedBefore, only)) {
                continue;
            }
            HistoryEntry e = oe.entry();
            long[] s = mysql.at.get(e.orderId());
            if (s == null || e.version() < s[1] || e.version() == s[1] && e.code() == ResultCode.APPLIED) {
                continue; // MySQL lacks the order, or a replay / history conflict: decided further on
            }
            String why = mysql.whyBeforeCreation(e);
            if (why == null) {
                why = e.code() == ResultCode.APPLIED ? mysql.whyNotMove(e, s) : whyNotRefusal(e, s);
            }
            if (why != null) {
                out.put(oe, why);
            } else if (e.code() == ResultCode.APPLIED) {
                s[0] = e.to().code();
                s[1] = e.version();
            }
        }
        return out;
    }

    private static boolean judged(OutboxEntry e, Set<String> recordedBefore, Set<String> only) {
        return e.readable() && !recordedBefore.contains(e.streamId()) && (only == null || only.contains(e.entry().orderId()));
    }

    /**
     * A refused attempt stands where the order stood: at MySQL's status and version as the order's entries before it
     * left them (the script writes the version it read).
     *
     * @param s the order's status and version so far
     * @return why it does not follow, or null
     */
    private static String whyNotRefusal(HistoryEntry e, long[] s) {
        int from = e.from() == null ? 0 : e.from().code();
        if (e.version() > s[1]) {
            return "a refused move at version " + e.version() + " of order " + e.orderId() + ", which MySQL has at version " + s[1];
        }
        if (from != s[0]) {
            return "a refused move from " + name(from) + " of order " + e.orderId() + ", which MySQL has " + name((int) s[0])
                    + " at version " + s[1];
        }
        return null;
    }

    /**
     * One batch's orders as MySQL has them, read in one SELECT (status, version, payment deadline), with what an applied
     * entry is judged by: the rules in force, the override records (read once, when an entry needs them) and Redis's clock
     * (read once, for a sweeper's cancel).
     */
    private final class AgainstMySql {
        private final Tables t;
        private final List<String> ids;
        /** Per order: its status code and version, moved on by each applied entry that follows. */
        final Map<String, long[]> at;
        private final Map<String, Long> deadline = new HashMap<>();
        private final Map<String, Long> created = new HashMap<>();
        private final TransitionRules inForce;
        private Set<String> overrides;
        private long now = -1;

        AgainstMySql(Tables t, List<String> ids) {
            this.t = t;
            this.ids = ids;
            this.at = new HashMap<>(ids.size() * 2);
            for (OrderRow r : t.orders().heads(ids)) {
                at.put(r.orderId, new long[]{r.status, r.version});
                deadline.put(r.orderId, r.expireAtMs != null ? r.expireAtMs : r.createdAtMs + DEFAULT_PAYMENT_TIMEOUT_MS);
                created.put(r.orderId, r.createdAtMs);
            }
            this.inForce = rules.get();
        }

        /** @return why the entry is dated before its order was created (a time no script gives it), or null */
        String whyBeforeCreation(HistoryEntry e) {
            long c = created.get(e.orderId());
            if (e.atMs() >= c - CREATION_SLACK_MS) {
                return null;
            }
            return "it is dated " + Instant.ofEpochMilli(e.atMs()) + ", before order " + e.orderId() + " was created ("
                    + Instant.ofEpochMilli(c) + " in MySQL; at most " + CREATION_SLACK_MS / 1000 + " s earlier is allowed)";
        }

        /**
         * An applied move: one version on, from the order's status, along an edge of the rules in force (or an override
         * an admin recorded), and a sweeper's cancel within the payment deadline and Redis's clock.
         *
         * @param s the order's status and version so far
         * @return why it does not follow, or null
         */
        String whyNotMove(HistoryEntry e, long[] s) {
            int from = e.from() == null ? 0 : e.from().code();
            if (e.version() != s[1] + 1) {
                return "version " + e.version() + " does not follow MySQL's version " + s[1] + " of order " + e.orderId()
                        + " (a move adds exactly 1)";
            }
            if (from != s[0]) {
                return "it moves order " + e.orderId() + " from " + name(from) + ", but MySQL has it " + name((int) s[0])
                        + " at version " + s[1];
            }
            if ((e.from() == null || !inForce.allows(e.from(), e.to())) && !edgeWhenAccepted(t, e)) {
                return whyNoOverride(e);
            }
            return sweeperCancel(e) ? whyNotSweeperCancel(e) : null;
        }

        private String whyNoOverride(HistoryEntry e) {
            if (overrides == null) {
                overrides = t.audit().overrides(new ArrayList<>(ids));
            }
            if (overrides.contains(e.orderId() + "/" + e.version() + "/" + e.actor())) {
                return null;
            }
            return "it moves order " + e.orderId() + " from " + e.from() + " to " + e.to() + ", which the rules in force "
                    + "(version " + inForce.version() + ") do not allow"
                    + (inForce.isTerminal(e.from()) ? " (" + e.from() + " is terminal)" : "")
                    + ", and no override is recorded in the audit log for version " + e.version() + " by " + e.actor()
                    + " from an admin's own account";
        }

        private String whyNotSweeperCancel(HistoryEntry e) {
            long due = deadline.get(e.orderId());
            if (now < 0) {
                now = redisNowMs.getAsLong();
            }
            if (e.atMs() < due) {
                return (Operator.CANCEL_SWEEPER.equals(e.actor()) ? "the cancel sweeper" : e.actor() + ", in the sweeper's name,")
                        + " cancelled order " + e.orderId() + " at " + Instant.ofEpochMilli(e.atMs())
                        + ", before the payment deadline MySQL holds for it (" + Instant.ofEpochMilli(due) + ")";
            }
            if (e.atMs() > now + FUTURE_SLACK_MS) {
                return "the cancel sweeper's cancel of order " + e.orderId() + " is dated " + Instant.ofEpochMilli(e.atMs())
                        + ", later than Redis's clock now (" + Instant.ofEpochMilli(now) + "): no script wrote it";
            }
            return null;
        }
    }

    /**
     * The batch's entries checked against each other, per order in stream order, as {@link #outOfSequence} checks them
     * against MySQL: an applied entry moves from the status and version the order's previous entry left, a refused one
     * stands at them. Checks no first entry against MySQL (the guarded UPDATE does) and no override record.
     *
     * @param unvouched filled with the orders that have refused entries only (no UPDATE vouches for their state) and those
     *     the cancel sweeper cancels (MySQL's deadline must be read)
     * @return false when an entry breaks its order's chain or makes a move that is no edge of the rules in force (MySQL
     *     must be read for an override record)
     */
    boolean chainHolds(List<OutboxEntry> batch, Set<String> recordedBefore, Set<String> unvouched) {
        TransitionRules inForce = rules.get();
        Map<String, long[]> state = new HashMap<>();
        Set<String> moved = new HashSet<>();
        Set<String> sweeperCancels = new HashSet<>();
        for (OutboxEntry oe : batch) {
            if (!oe.readable() || recordedBefore.contains(oe.streamId())) {
                continue;
            }
            HistoryEntry e = oe.entry();
            int from = e.from() == null ? 0 : e.from().code();
            boolean applied = e.code() == ResultCode.APPLIED;
            if (applied && (e.from() == null || !inForce.allows(e.from(), e.to()))) {
                return false; // no edge: only an admin's override record lets it through, read from MySQL
            }
            if (sweeperCancel(e)) {
                sweeperCancels.add(e.orderId()); // judged against the deadline MySQL holds
            }
            long[] s = state.get(e.orderId());
            if (s != null && (from != s[0] || e.version() != (applied ? s[1] + 1 : s[1]))) {
                return false;
            }
            if (s == null) {
                s = new long[]{from, applied ? e.version() - 1 : e.version()};
                state.put(e.orderId(), s);
            }
            if (applied) {
                s[0] = e.to().code();
                s[1] = e.version();
                moved.add(e.orderId());
            }
        }
        for (String id : state.keySet()) {
            if (!moved.contains(id)) {
                unvouched.add(id);
            }
        }
        unvouched.addAll(sweeperCancels);
        return true;
    }

    private static String name(int status) {
        return status >= 1 && status <= OrderStatus.values().length ? OrderStatus.ofCode(status).name() : "status " + status;
    }
}
