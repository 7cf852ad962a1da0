package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;

/**
 * MALFORMED_IN_REDIS and REDIS_UNEXPLAINED: Redis holds something no recorded transition explains, so its state
 * is replaced by MySQL's, the durable record, and the dead letter that set the malformed record aside is closed with
 * it (left open, it would invite someone to retry what is repaired already); an order MySQL does not know stays in
 * the dead-letter list. A state written behind the scripts' back was never counted by the live per-status counters, so
 * moving the counters from it to MySQL's state would leave them off by one: the counters of the buckets it touched are
 * counted again once the findings are repaired.
 */
final class RestoreRedisRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final OrderRebuilder rebuilder;
    private final Database db;
    private final LiveCounters counters;
    /** Buckets whose orders this repair replaced since {@link #prepare()}. */
    private final java.util.Set<Integer> touched = java.util.concurrent.ConcurrentHashMap.newKeySet();

    RestoreRedisRepair(OrderStateStore states, OrderRebuilder rebuilder, Database db, LiveCounters counters) {
        this.db = db;
        this.counters = counters;
        this.states = states;
        this.rebuilder = rebuilder;
    }

    /** @return the dry-run step of a repair that copies MySQL's record into Redis */
    static ReconciliationService.RepairStep mysqlToRedis(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "MySQL → Redis",
                f.mysqlStatus() == null ? "left to the dead-letter list" : Repair.mysqlSide(f));
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return mysqlToRedis(f);
    }

    @Override
    public void prepare() {
        touched.clear();
    }

    @Override
    public String finish() {
        if (touched.isEmpty()) {
            return null;
        }
        java.util.List<Integer> buckets = touched.stream().sorted().toList();
        counters.recount(buckets);
        touched.clear();
        return "live counters of bucket" + (buckets.size() == 1 ? " " : "s ") + buckets.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", ")) + " recounted";
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        String before = before(f.orderId());
        OrderState now = rebuilder.restoreFromMysql(f.orderId());
        if (now == null) {
            throw new IllegalStateException("MySQL has no record of it: it stays in the dead-letter list");
        }
        touched.add(com.orderconsole.redis.RedisKeys.bucket(f.orderId()));
        String done = "Redis restored from MySQL: was " + before + ", now " + Repair.describe(now);
        return done + closeLetter(f.orderId(), operator, done);
    }

    /**
     * @return the state replaced, in words: "FINISHED v3", or for a record that is not well-formed what is wrong with it
     *     and the hash as stored (the raw hash alone, "status=5 version=3 updateTime=1511380740000 …", was all the audit
     *     said of a well-formed state)
     */
    private String before(String orderId) {
        try {
            return Repair.describe(states.get(orderId));
        } catch (com.orderconsole.redis.MalformedOrderException e) {
            return "a malformed record (" + e.problem() + ": " + states.raw(orderId) + ")";
        }
    }

    /**
     * Closes the order's open record letter as retried (what a retry of it does: restore from MySQL), with its audit row
     * in the same transaction, as {@code dead-letters retry} would.
     *
     * @return words to add to the repair's outcome, "" when no letter was open
     */
    private String closeLetter(String orderId, Operator operator, String done) {
        DeadLetterRow letter = db.read(t -> t.deadLetters().openRecordLetter(orderId));
        if (letter == null) {
            return "";
        }
        long now = System.currentTimeMillis();
        String text = "closed by reconciliation's repair: " + done;
        boolean closed = db.inTransaction(t -> t.deadLetters().resolve(letter.id, "RETRIED", operator.name(), now, text,
                new AuditRow(now, operator.name(), "reconciliation", AuditTrail.DEAD_LETTER_RETRY, orderId, "",
                        "letter " + letter.id + ": " + text)));
        return closed ? "; dead letter " + letter.id + " closed" : "";
    }
}
