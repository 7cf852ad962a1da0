package com.orderconsole.service.recon;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryStore;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 4 of a compare: tells lag from drift for the orders Redis holds at a higher version than MySQL. Redis ahead
 * is lag when the outbox still holds the entries that bring MySQL there, or when MySQL's history has that version by
 * now; otherwise no recorded transition explains it. A class of its own because it is the one phase that reads the
 * follower's outbox and MySQL's history, not the two stores side by side.
 */
final class RedisAheadCheck {
    /** Outbox entries of one bucket a compare reads to tell lag from drift; beyond it the bucket is not checked. */
    static final int PENDING_READ_CAP = 20_000;
    /** Orders whose history and row one MySQL round reads. */
    private static final int PAGE = 1000;

    private final Database db;
    private final ReconFollower follower;

    RedisAheadCheck(Database db, ReconFollower follower) {
        this.db = db;
        this.follower = follower;
    }

    /**
     * Adds a finding for each of the compare's Redis-ahead orders that is not lag. The outbox is read before the
     * history, so an entry the follower applies in between is seen in one of them.
     */
    void classify(CompareRun c) {
        List<OrderSummary> ahead = c.redisAhead;
        Map<Integer, Map<String, Long>> pending = new HashMap<>();
        for (OrderSummary o : ahead) {
            pending.computeIfAbsent(RedisKeys.bucket(o.orderId()), b -> {
                Map<String, Long> p = follower.pendingVersions(b, PENDING_READ_CAP);
                return p == null ? Map.of("", -1L) : p; // "" marks a bucket too far behind to check
            });
        }
        for (int from = 0; from < ahead.size(); from += PAGE) {
            List<OrderSummary> page = ahead.subList(from, Math.min(ahead.size(), from + PAGE));
            List<HistoryEntry> probes = page.stream().map(o -> new HistoryEntry(o.orderId(), null, o.redisStatus(),
                    o.redisVersion(), ResultCode.APPLIED, "", "", "", 0, "")).toList();
            Map<String, HistoryEntry> recorded = db.read(t -> t.history().appliedAt(probes));
            Map<String, Long> rowVersions = new HashMap<>();
            db.read(t -> t.orders().findAll(page.stream().map(OrderSummary::orderId).toList()))
                    .forEach(r -> rowVersions.put(r.orderId, r.version));
            for (OrderSummary o : page) {
                Map<String, Long> p = pending.get(RedisKeys.bucket(o.orderId()));
                long diff = o.redisVersion() - o.mysqlVersion();
                HistoryEntry h = recorded.get(HistoryStore.versionKey(o.orderId(), o.redisVersion()));
                if (p.getOrDefault(o.orderId(), 0L) >= o.redisVersion()) {
                    continue; // lag: the follower will apply it
                }
                if (h != null && h.to() == o.redisStatus()) {
                    if (rowVersions.getOrDefault(o.orderId(), 0L) < o.redisVersion()) {
                        // The history has the move but the order row does not: the row follows its history.
                        c.add(CompareRun.finding(ReconCategory.STATE_MISMATCH, o, "Redis ahead by " + diff + " version"
                                + (diff == 1 ? "" : "s"), FindingDetail.REDIS_AHEAD, diff));
                    }
                    continue; // otherwise lag: the follower applied it meanwhile
                }
                if (p.containsKey("")) {
                    c.add(CompareRun.finding(ReconCategory.STATE_MISMATCH, o, "Redis ahead by " + diff + "; more than "
                            + PENDING_READ_CAP + " changes of its bucket wait in the outbox, so it was not checked: compare "
                            + "again when the follower has caught up", FindingDetail.REDIS_AHEAD_UNCHECKED, diff, PENDING_READ_CAP));
                } else {
                    String unexplained = "Redis ahead by " + diff + " version" + (diff == 1 ? "" : "s")
                            + " that no recorded transition explains";
                    c.add(h == null
                            ? CompareRun.finding(ReconCategory.REDIS_UNEXPLAINED, o, unexplained, FindingDetail.UNEXPLAINED, diff)
                            : CompareRun.finding(ReconCategory.REDIS_UNEXPLAINED, o, unexplained + " (MySQL's history has " + h.to()
                            + " at version " + o.redisVersion() + ")", FindingDetail.UNEXPLAINED_HISTORY, diff, h.to(), o.redisVersion()));
                }
            }
        }
    }
}
