package com.orderconsole.service.bulk;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.store.BulkBatchRow;
import com.orderconsole.store.BulkItemRow;
import com.orderconsole.store.BulkPlanRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Closes a batch whose process died, so its record accounts for every order of its plan. Split from
 * {@link BulkService} because it works after the fact from other evidence (the plan, MySQL's history once the
 * follower caught up) and runs in another process than the batch it closes, with its own role (ops) and audit entry.
 */
final class BulkCloser {
    private static final Logger log = LoggerFactory.getLogger(BulkCloser.class);
    /** How long a close waits for the follower to bring MySQL's history up to date, seconds. */
    private static final long CLOSE_CATCH_UP_S = 30;

    private final RedisConnection clock;
    private final Database db;
    private final Access access;
    private final Follower follower;
    private final AuditTrail audit;
    private final BulkRecords records;
    private final long leaseMs;

    BulkCloser(RedisConnection clock, Database db, Access access, Follower follower, AuditTrail audit, BulkRecords records, long leaseMs) {
        this.clock = clock;
        this.db = db;
        this.access = access;
        this.follower = follower;
        this.audit = audit;
        this.records = records;
        this.leaseMs = leaseMs;
    }

    /** See {@link BulkService#close}. */
    BulkBatch close(Operator operator, long batchId, String source) {
        access.require(operator, Role.OPS, "close an abandoned bulk batch");
        requireClosable(batchId);
        awaitFollower(batchId);
        String prefix = "bulk #" + batchId + ": ";
        long now = clock.nowMs();
        List<BulkPlanRow> open = db.read(t -> t.bulk().unrecorded(batchId));
        List<BulkPlanRow> inFlight = open.subList(0, Math.min(BulkService.CHUNK, open.size()));
        Map<String, HistoryRow> written = new HashMap<>();
        db.read(t -> t.bulk().historyOf(inFlight.stream().map(p -> p.orderId).toList(), prefix)).forEach(h -> written.putIfAbsent(h.orderId, h));
        BulkBatchRow row = db.read(t -> t.bulk().findBatch(batchId));
        List<BulkItemRow> items = new ArrayList<>(open.size());
        for (int i = 0; i < open.size(); i++) {
            items.add(item(row, open.get(i), i < inFlight.size(), written, now));
        }
        row.finishedAtMs = now;
        boolean closed = db.inTransaction(t -> {
            if (!t.bulk().closeAbandoned(row, leaseMs)) {
                return false;
            }
            t.bulk().insertItems(items);
            return true;
        });
        if (!closed) {
            throw new IllegalStateException("bulk #" + batchId + " not closed: it beat again or someone closed it meanwhile; look at it again");
        }
        long moved = items.stream().filter(i -> i.outcome.equals(BulkItem.Outcome.APPLIED.name())).count();
        String detail = "bulk #" + batchId + " closed: " + moved + " of the chunk in flight had moved, " + (inFlight.size() - written.size())
                + " of it had not, " + (open.size() - inFlight.size()) + " never attempted";
        audit.record(operator, source, BulkService.CLOSE_ACTION, null, BulkService.ABANDONED, detail);
        log.info("{} by {}", detail, operator.name());
        return records.batch(batchId);
    }

    private void requireClosable(long batchId) {
        BulkBatch b = records.batch(batchId);
        if (!b.closable()) {
            throw new IllegalArgumentException("bulk #" + batchId + " is " + b.state().name().toLowerCase(Locale.ROOT)
                    + (b.finishedAtMs() != null ? " and finished" : "") + ": only a RUNNING batch whose heartbeat stopped for longer than "
                    + leaseMs / 1000 + " s (its process died) can be closed");
        }
    }

    /** Whether the chunk in flight moved can only be read from MySQL's history once the follower has applied the outbox. */
    private void awaitFollower(long batchId) {
        CatchUp caught = follower.catchUp(Duration.ofSeconds(CLOSE_CATCH_UP_S));
        if (!caught.caughtUp()) {
            throw new IllegalStateException("bulk #" + batchId + " not closed: MySQL has not caught up with the Redis outbox (" + caught.detail()
                    + "), so whether the orders of the chunk in flight moved cannot be told yet; try again once it has");
        }
    }

    /**
     * The record of one unrecorded order of the plan: for the chunk in flight, the outcome its history row of this batch
     * shows (counted on {@code row}); otherwise, or without such a row, not run.
     */
    private static BulkItemRow item(BulkBatchRow row, BulkPlanRow p, boolean inFlight, Map<String, HistoryRow> written, long now) {
        BulkItemRow item = new BulkItemRow();
        item.batchId = row.id;
        item.orderId = p.orderId;
        item.seenStatus = p.seenStatus;
        item.seenVersion = p.seenVersion;
        item.version = p.seenVersion;
        item.atMs = now;
        HistoryRow h = inFlight ? written.get(p.orderId) : null;
        if (h == null) {
            item.outcome = BulkItem.Outcome.NOT_RUN.name();
            item.error = inFlight
                    ? BulkService.ABANDONED + " while this order's chunk was in flight: no history row of bulk #" + row.id
                      + " once MySQL caught up, so not moved by it (it may never have been sent)"
                    : BulkService.ABANDONED + ": never attempted";
            return item;
        }
        ResultCode code = ResultCode.ofCode(h.resultCode);
        item.outcome = code.applied() ? BulkItem.Outcome.APPLIED.name()
                : code == ResultCode.VERSION_CONFLICT ? BulkItem.Outcome.CONFLICT.name() : BulkItem.Outcome.REJECTED.name();
        item.resultCode = code.code();
        item.version = h.version;
        item.atMs = h.atMs;
        item.error = BulkService.ABANDONED + " while this order's chunk was in flight: outcome read from its history row";
        if (code.applied()) {
            row.applied++;
        } else if (code == ResultCode.VERSION_CONFLICT) {
            row.conflicts++;
        } else {
            row.rejected++;
        }
        return item;
    }
}
