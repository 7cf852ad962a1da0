package com.orderconsole.service.feed;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryStore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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
 * its ids and writing them) or lost for good (a rolled-back transaction, an INSERT IGNORE of a replay); the cursor passes a
 * gap only once every id of it was handed out more than {@link #DEFAULT_GAP_GRACE} ago (longer than any statement may run
 * before its timeout cancels it), learnt from the highest id seen at each read. So a fresh process waits up to that grace
 * once at a gap it has not seen age; a held row it waits for as long as it is held.
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

    private final Database db;
    private final Duration gapGrace;
    /** (highest id seen, when) of recent reads, oldest first: ids up to the first were handed out before the second. */
    private final Deque<long[]> seen = new ArrayDeque<>();

    /**
     * @param db MySQL
     * @param gapGrace how long a gap must have existed before the cursor passes it ({@link #DEFAULT_GAP_GRACE}; tests
     *     shorten it)
     */
    public ChangeFeed(Database db, Duration gapGrace) {
        this.db = db;
        this.gapGrace = gapGrace;
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
     */
    public record Page(List<Event> events, String cursor, Long heldBy) {
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
        List<Long> existing = db.readUncommitted(t -> {
            maxSeen[0] = t.history().maxId();
            // Every cursor given stands on a written row, so one past every id handed out was never given by this feed
            // (kept from another database, say): refused, since its consumer would wait for ever on rows that never come.
            if (after > maxSeen[0] && after > t.history().allocatedThrough()) {
                throw new IllegalArgumentException(aheadOfTheFeed(cursor));
            }
            return t.history().idsAfter(after, scan);
        });
        long readAt = System.nanoTime();
        List<HistoryStore.Positioned> committed = db.read(t -> t.history().after(after, scan));
        long settledThrough = settledThrough(maxSeen[0], readAt);
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
        for (long id : ids) {
            if (id > bound || events.size() == limit) {
                break;
            }
            if (id > pos + 1 && id - 1 > settledThrough) {
                break; // a gap whose ids may still be written
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
        return new Page(events, cursor(pos), heldBy);
    }

    /**
     * Remembers the highest id seen now and answers through which id every id was handed out at least the grace ago.
     */
    private synchronized long settledThrough(long maxSeen, long now) {
        if (seen.isEmpty() || seen.peekLast()[0] < maxSeen) {
            seen.addLast(new long[]{maxSeen, now});
        }
        long graceNanos = gapGrace.toNanos();
        // The newest sample old enough is the answer; older ones are not needed again, younger ones are kept for later.
        long[] oldEnough = null;
        while (!seen.isEmpty() && now - seen.peekFirst()[1] >= graceNanos) {
            oldEnough = seen.pollFirst();
        }
        if (oldEnough == null) {
            return 0;
        }
        seen.addFirst(oldEnough);
        return oldEnough[0];
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
