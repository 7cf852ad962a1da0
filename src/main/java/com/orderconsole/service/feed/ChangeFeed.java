package com.orderconsole.service.feed;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A change feed of applied transitions (creations included) read from MySQL's {@code order_history}, the durable record,
 * in the order of its ids. A consumer that follows it from the start sees every applied transition exactly once, and each
 * order's in version order (one follower at a time applies a bucket, in outbox order).
 *
 * <p><b>Why the cursor never skips a row committed late.</b> InnoDB hands out auto-increment ids when a row is inserted,
 * not when its transaction commits: a follower transaction holding id 10 may commit after another committed id 11. A
 * cursor that moved past 11 would never see 10. So each read asks twice: first at READ UNCOMMITTED which ids exist at all
 * (rows of transactions still open included), then, in auto-commit, which rows are committed. The cursor moves only
 * through ids that are committed, and stops at the first id that exists but is not committed (held: it will commit or
 * vanish). An id that is in neither read (a gap) was either given to a row not inserted yet (a statement between taking
 * its ids and writing them) or lost for good (a rolled-back transaction, an INSERT IGNORE of a replay).
 *
 * <p><b>When a gap is settled.</b> Every writer of history is marked at work ({@code history_writer}, V47) before InnoDB
 * hands it an id, and unmarked only once every row it writes is in the table (held until its commit, or gone with its
 * rollback). Each read first reads the marks, then the ids, both at READ UNCOMMITTED. A read that sees a gap notes the
 * highest id seen; a later read notes the writers marked then: any writer that held an id up to that one is among them
 * or has finished writing. Once a read finds none of them still marked, every id up to the noted one is final: its row
 * is in that read's ids (committed, or held and waited for), or it never comes. A gap left by a rollback or a replay costs
 * a consumer two reads (well under a second); the account needs no global privilege (PROCESS) and no restart.
 *
 * <p>The time grace remains the fallback: when the marks cannot be read, or a writer's mark stays set (SQL written by
 * hand that does not unmark), the cursor passes a gap once every id of it was handed out more than
 * {@link #DEFAULT_GAP_GRACE} ago (longer than any statement may run before its timeout cancels it), learnt from the
 * highest id seen at each read. A held row it waits for as long as it is held.
 *
 * <p>Reads MySQL only; callers bound the wait (the API answers 503 when MySQL does not answer).
 */
public final class ChangeFeed {
    /**
     * How long a gap must have existed before the cursor passes it: the statements' timeout (30 s) and InnoDB's lock wait
     * (50 s by default) bound how long ids may stay handed out and not written; 60 s is past both.
     */
    public static final Duration DEFAULT_GAP_GRACE = Duration.ofSeconds(60);
    /** Most events in one page. */
    public static final int MAX_LIMIT = 1000;
    private static final String CURSOR_PREFIX = "oc1:";
    private static final Logger log = LoggerFactory.getLogger(ChangeFeed.class);

    private final Database db;
    private final Duration gapGrace;
    /** Lists the writers at work ({@link HistoryStore#openWriters}; a test gives a refusal). */
    private final Function<HistoryStore, HistoryStore.OpenTransactions> transactionList;
    /** Highest ids seen by recent reads, oldest first: the reads' knowledge of which ids are settled. Guarded by this. */
    private final Deque<Sample> seen = new ArrayDeque<>();
    /** The writers' marks cannot be read: gaps wait out the grace (said once in the log). */
    private volatile boolean listRefused;

    /**
     * What one read learnt: every id up to {@code maxSeen} was handed out before {@code seenAt}. Once the writers marked at
     * a later read ({@code open}) are all unmarked (a read whose ids began at {@code settledAt} knew it), or the grace has
     * passed since {@code seenAt}, none of those ids will appear any more.
     */
    private static final class Sample {
        final long maxSeen;
        final long seenAt;
        Set<String> open;
        long settledAt = Long.MAX_VALUE;

        Sample(long maxSeen, long seenAt) {
            this.maxSeen = maxSeen;
            this.seenAt = seenAt;
        }
    }

    /**
     * @param db MySQL
     * @param gapGrace how long a gap must have existed before the cursor passes it ({@link #DEFAULT_GAP_GRACE}; tests
     *     shorten it)
     */
    public ChangeFeed(Database db, Duration gapGrace) {
        this(db, gapGrace, HistoryStore::openWriters);
    }

    /**
     * @param transactionList how a read lists the writers at work (a test answers as a database without the marks does)
     */
    ChangeFeed(Database db, Duration gapGrace, Function<HistoryStore, HistoryStore.OpenTransactions> transactionList) {
        this.db = db;
        this.gapGrace = gapGrace;
        this.transactionList = transactionList;
    }

    /**
     * One applied transition in the feed.
     *
     * @param cursor where to resume to read what follows this event
     * @param entry the history row (actor, source, reason, versions, time)
     */
    public record Event(String cursor, HistoryEntry entry) {
    }

    /**
     * One read.
     *
     * @param events applied transitions after the cursor given, in id order
     * @param cursor where to resume (past the events, and past rejected attempts and settled gaps behind them)
     * @param heldBy the id of the oldest row a transaction still holds uncommitted, where the read stopped; null when none
     * @param heldAtGap the read stopped at a gap in the ids that is not settled yet (a row a statement may still write, or
     *     one lost to a rollback): what follows comes once the gap passes (so a reader can tell such a hold from "nothing
     *     new")
     */
    public record Page(List<Event> events, String cursor, Long heldBy, boolean heldAtGap) {
    }

    /**
     * Reads what follows a cursor.
     *
     * @param cursor from an earlier page or event, or null/empty for the start
     * @param limit most events, 1 to {@link #MAX_LIMIT}
     * @return the events and the cursor to resume from (the same one when nothing new is committed)
     * @throws IllegalArgumentException when the cursor is not one this feed gave, or the limit is out of range
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL is unreachable
     */
    public Page read(String cursor, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", got " + limit);
        }
        long after = position(cursor);
        int scan = Math.min(4 * MAX_LIMIT, Math.max(100, 2 * limit));
        long[] maxSeen = new long[1];
        long[] seenAt = new long[1];
        long[] marksAt = new long[1];
        long[] idsAt = new long[1];
        HistoryStore.OpenTransactions[] open = new HistoryStore.OpenTransactions[1];
        List<Long> existing = db.readUncommitted(t -> {
            // The marks before the ids: a writer unmarked now has every row it writes in the ids read next.
            if (!listRefused && waitingOnGap()) {
                marksAt[0] = System.nanoTime();
                open[0] = transactionList.apply(t.history());
            }
            idsAt[0] = System.nanoTime();
            maxSeen[0] = t.history().maxId();
            // Every cursor given stands on a written row, so one past every id handed out was never given by this feed
            // (kept from another database, say): refused, since its consumer would wait for ever on rows that never come.
            if (after > maxSeen[0] && after > t.history().allocatedThrough()) {
                throw new IllegalArgumentException(aheadOfTheFeed(cursor));
            }
            List<Long> ids = t.history().idsAfter(after, scan);
            seenAt[0] = System.nanoTime();
            return ids;
        });
        if (open[0] != null && open[0].refused() && !listRefused) {
            listRefused = true;
            log.warn("the change feed cannot read the history writers' marks (table history_writer, made by migration 47): a "
                    + "gap in the history's ids is passed after {} s instead of once its writers have finished", gapGrace.toSeconds());
        }
        long readAt = System.nanoTime();
        List<HistoryStore.Positioned> committed = db.read(t -> t.history().after(after, scan));
        HistoryStore.OpenTransactions known = open[0] == null || open[0].refused() ? null : open[0];
        long settledThrough = settledThrough(maxSeen[0], seenAt[0], known, marksAt[0], idsAt[0], readAt);
        return page(after, limit, scan, existing, committed, settledThrough);
    }

    /**
     * Walks the ids both reads saw, in order, from {@code after}: committed rows go into the page, and the walk stops at a
     * row still held (uncommitted), at a gap not yet settled, at the end of what both reads covered, or at {@code limit}.
     *
     * @param existing the ids seen under READ UNCOMMITTED (held rows included)
     * @param committed the committed rows
     * @param settledThrough the id through which no gap's id can appear any more
     */
    private static Page page(long after, int limit, int scan, List<Long> existing, List<HistoryStore.Positioned> committed,
                             long settledThrough) {
        Map<Long, HistoryStore.Positioned> byId = new HashMap<>();
        committed.forEach(p -> byId.put(p.id(), p));
        TreeSet<Long> ids = new TreeSet<>(existing);
        ids.addAll(byId.keySet());
        long bound = Long.MAX_VALUE;
        if (existing.size() == scan) {
            bound = existing.get(existing.size() - 1);
        }
        if (committed.size() == scan) {
            bound = Math.min(bound, committed.get(committed.size() - 1).id());
        }
        List<Event> events = new ArrayList<>();
        long pos = after;
        Long heldBy = null;
        boolean heldAtGap = false;
        for (long id : ids) {
            if (id > bound || events.size() == limit) {
                break;
            }
            if (id > pos + 1 && id - 1 > settledThrough) {
                heldAtGap = true; // a gap whose ids may still be written
                break;
            }
            HistoryStore.Positioned row = byId.get(id);
            if (row == null) {
                heldBy = id;
                break;
            }
            pos = id;
            if (row.entry().code().applied()) {
                events.add(new Event(cursor(pos), row.entry()));
            }
        }
        return new Page(events, cursor(pos), heldBy, heldAtGap);
    }

    /**
     * @return true when a read may need the writers' marks: a sample is not settled yet (every read that saw ids notes
     *     one, and most settle at the next read)
     */
    private synchronized boolean waitingOnGap() {
        for (Sample s : seen) {
            if (s.settledAt == Long.MAX_VALUE) {
                return true;
            }
        }
        return false;
    }

    /**
     * Remembers what this read saw and answers through which id every id is settled (none will appear any more): by marks
     * read before this read's ids, or by the grace before its committed read.
     *
     * @param maxSeen the highest id this read saw (committed or not)
     * @param seenAt when it was seen (after its ids were read)
     * @param open the writers marked at this read, read before its ids; null when not read or not readable
     * @param marksAt when the marks' read began
     * @param idsAt when the ids' read began (after the marks came back)
     * @param readAt when its committed read began
     */
    private synchronized long settledThrough(long maxSeen, long seenAt, HistoryStore.OpenTransactions open, long marksAt,
                                             long idsAt, long readAt) {
        long graceNanos = gapGrace.toNanos();
        long settled = 0;
        Sample newest = null;
        for (Sample s : seen) {
            // Only marks read wholly after a sample's ids know every writer that may hold one of them.
            if (open != null && s.settledAt == Long.MAX_VALUE && marksAt > s.seenAt) {
                if (s.open == null) {
                    s.open = open.writers();
                }
                if (Collections.disjoint(s.open, open.writers())) {
                    s.settledAt = idsAt; // every noted writer had finished writing before this read's ids were read
                }
            }
            // A read that began its ids before the marks that settled a sample were read may lack rows: not for it.
            if (s.settledAt <= idsAt || readAt - s.seenAt >= graceNanos) {
                settled = Math.max(settled, s.maxSeen);
                newest = s;
            }
        }
        if (seen.isEmpty() || seen.peekLast().maxSeen < maxSeen) {
            seen.addLast(new Sample(maxSeen, seenAt));
        }
        // Samples below the newest settled one tell nothing more to a read begun from now on.
        while (newest != null && seen.peekFirst() != newest) {
            seen.pollFirst();
        }
        return settled;
    }

    /**
     * Checks a cursor's form without reading MySQL.
     *
     * @throws IllegalArgumentException in words when it is not one this feed gave
     */
    public static void requireCursor(String cursor) {
        position(cursor);
    }

    private static String aheadOfTheFeed(String cursor) {
        return "cursor '" + shown(cursor) + "' is ahead of this feed: it is past every event this database has recorded, so it "
                + "was not given by this feed (kept from another database?); start without one, or resume from a cursor it gave";
    }

    private static String shown(String cursor) {
        return cursor.replaceAll("[^A-Za-z0-9_-]", "?").substring(0, Math.min(cursor.length(), 40));
    }

    /** @return the opaque cursor of a position (the id of the last row passed) */
    static String cursor(long position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((CURSOR_PREFIX + position).getBytes(StandardCharsets.US_ASCII));
    }

    /** @return the position a cursor stands for; 0 for null or empty (the start) */
    static long position(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return 0;
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            text = "";
        }
        if (cursor.length() <= 40 && text.startsWith(CURSOR_PREFIX)) {
            try {
                long p = Long.parseLong(text.substring(CURSOR_PREFIX.length()));
                if (p >= 0) {
                    return p;
                }
            } catch (NumberFormatException e) {
                // the same words as any other foreign cursor below
            }
        }
        throw new IllegalArgumentException("cursor '" + shown(cursor)
                + "' is not one this feed gave: start without one, or resume from the cursor of the last page or event read");
    }
}
