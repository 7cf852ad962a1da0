package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderId;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One batch of one bucket as its transaction goes: the entries read, those set aside, those not to be applied, the
 * history rows still to write. Filled step by step by {@link BatchApplier} and the checks it asks.
 */
final class Batch {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    final int bucket;
    final String epoch;
    Tables t;
    List<OutboxEntry> entries;
    /** Redis' clock (epoch ms) read just before the entries: what their times are judged by. */
    long redisNowMs;
    /** Stream ids of the entries set aside: they move no counter. */
    final Set<String> aside = new HashSet<>();
    /** Per order, the stream ids set aside for it, in the order they were set aside. */
    final Map<String, List<String>> asideByOrder = new LinkedHashMap<>();
    /** Stream ids of the entries not to be applied: recorded before a restore, or set aside by a check. */
    Set<String> skip = Set.of();
    /** The history rows to write: the readable entries not skipped (less those of invented orders, at the end). */
    List<HistoryEntry> rows;
    /** true: the batch's own chain holds, and each order's first move is checked by the guarded UPDATE itself. */
    boolean sequenced;
    /** The applied entries MySQL has once the transaction commits (for terminal retention). */
    final List<HistoryEntry> committed = new ArrayList<>();
    /** The stream id the cursor stands at after this batch. */
    String last;
    /** Entries recorded in the history now. */
    int recorded;

    Batch(int bucket, String epoch) {
        this.bucket = bucket;
        this.epoch = epoch;
    }

    /** @return true for a readable entry still to be judged (not recorded before a restore, not set aside) */
    boolean judged(OutboxEntry e) {
        return e.readable() && !skip.contains(e.streamId());
    }

    /** The entries {@code ids} are not applied either: the rows to write are made again without them. */
    void skipAlso(Set<String> ids) {
        if (!ids.isEmpty()) {
            Set<String> more = new HashSet<>(skip);
            more.addAll(ids); // entries not to be applied, like those recorded before
            skip = more;
            rows = rowsOf(entries, skip);
        }
    }

    static List<HistoryEntry> rowsOf(List<OutboxEntry> batch, Set<String> skip) {
        List<HistoryEntry> kept = new ArrayList<>(batch.size());
        for (OutboxEntry e : batch) {
            if (e.readable() && !skip.contains(e.streamId())) {
                kept.add(e.entry());
            }
        }
        return kept;
    }

    /** Sets one entry aside as an open dead letter in this batch's transaction, with why in words. */
    void setAside(String kind, OutboxEntry e, String orderId, String reason) {
        aside.add(e.streamId());
        if (orderId != null && !asideByOrder.computeIfAbsent(orderId, k -> new ArrayList<>()).contains(e.streamId())) {
            asideByOrder.get(orderId).add(e.streamId());
        }
        DeadLetterRow d = DeadLetterRow.open(kind, orderId, e.bucket(), e.streamId(), reason, e.body(),
                System.currentTimeMillis(), "outbox:b" + e.bucket() + "/" + e.streamId());
        if (t.deadLetters().add(d)) {
            log.warn("set aside outbox entry {} of bucket {} ({}): {}", e.streamId(), e.bucket(),
                    orderId == null ? "no order id could be read" : "order " + orderId, reason);
        }
    }

    /** @return the order id an entry's stored body names, in any outbox form, or null when it names none that is valid */
    static String orderIdOf(String body) {
        // Any outbox form: "o=<id> …" (the first form), "k=<id>,<from>,… …" (compact), "e=<id>,<from>,…" (one field).
        for (String part : body.split("[ \n]")) {
            if (part.startsWith("o=") || part.startsWith("k=") || part.startsWith("e=")) {
                String id = part.substring(2);
                int comma = part.startsWith("o=") ? -1 : id.indexOf(',');
                if (!part.startsWith("o=") && comma < 0) {
                    return null; // not an outcome line ("e=not an outcome at all" named an order "not")
                }
                id = comma >= 0 ? id.substring(0, comma) : id;
                return OrderId.isValid(id) ? id : null;
            }
        }
        return null;
    }
}
