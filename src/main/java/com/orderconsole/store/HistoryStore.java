package com.orderconsole.store;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The append-only {@code order_history} table: inserts and reads, never an update or a delete (an
 * architecture test keeps it so). The one class that writes it.
 */
public final class HistoryStore {
    private final HistoryMapper m;

    HistoryStore(HistoryMapper m) {
        this.m = m;
    }

    /**
     * Appends entries; an entry whose event key is there already is skipped, so a replay inserts nothing.
     *
     * @return rows inserted
     */
    public int append(List<HistoryEntry> entries) {
        if (entries.isEmpty()) {
            return 0;
        }
        List<HistoryRow> rows = new ArrayList<>(entries.size());
        entries.forEach(e -> rows.add(row(e)));
        return m.insertIgnore(rows);
    }

    /**
     * Appends entries one statement each: meant for a batch unit of work ({@link Database#inBatch}),
     * where the JDBC driver rewrites them into multi-row inserts, faster for bulk loads than one long statement.
     */
    public void appendEach(List<HistoryEntry> entries) {
        entries.forEach(e -> m.insertOneIgnore(row(e)));
    }

    /**
     * The applied rows MySQL holds for the versions of some entries (whatever their event key).
     *
     * @return {@link #versionKey} to the row recorded at that order and version
     */
    public Map<String, HistoryEntry> appliedAt(List<HistoryEntry> entries) {
        List<HistoryEntry> applied = entries.stream().filter(e -> e.code() == ResultCode.APPLIED).toList();
        Map<String, HistoryEntry> out = new HashMap<>();
        if (!applied.isEmpty()) {
            m.appliedAt(applied).forEach(h -> out.put(versionKey(h.orderId, h.version), entry(h)));
        }
        return out;
    }

    /** @return the key {@link #appliedAt} uses for an order's version */
    public static String versionKey(String orderId, long version) {
        return orderId + "#" + version;
    }

    /** @return an order's history, oldest first */
    public List<HistoryEntry> byOrder(String orderId) {
        List<HistoryEntry> out = new ArrayList<>();
        for (HistoryRow h : m.byOrder(orderId)) {
            out.add(entry(h));
        }
        return out;
    }

    private static HistoryEntry entry(HistoryRow h) {
        return new HistoryEntry(h.orderId, h.fromStatus == null ? null : OrderStatus.ofCode(h.fromStatus),
                OrderStatus.ofCode(h.toStatus), h.version, ResultCode.ofCode(h.resultCode), h.actor, h.source, h.reason,
                h.atMs, h.eventKey);
    }

    /** @return applied transitions per edge since {@code sinceMs}: key = from code, key2 = to code */
    public List<CountRow> appliedEdgesSince(long sinceMs) {
        return m.appliedEdgesSince(sinceMs);
    }

    /**
     * @return transition attempts per result code since {@code sinceMs} by minute: key = minute
     *     (epoch ms / 60000), key2 = code; creation rows are not transitions and are left out
     */
    public List<CountRow> perMinuteSince(long sinceMs) {
        return m.perMinuteSince(sinceMs);
    }

    private static HistoryRow row(HistoryEntry e) {
        HistoryRow h = new HistoryRow();
        h.orderId = e.orderId();
        h.fromStatus = e.from() == null ? null : e.from().code();
        h.toStatus = e.to().code();
        h.version = e.version();
        h.resultCode = e.code().code();
        h.actor = e.actor();
        h.source = e.source();
        h.reason = e.reason() == null ? "" : e.reason();
        h.atMs = e.atMs();
        h.eventKey = e.eventKey();
        return h;
    }
}
