package com.orderconsole.store;

/** One row of {@code dead_letter}, as MyBatis maps it. Times are epoch milliseconds. */
public class DeadLetterRow {
    /** Kind: an outbox entry the follower cannot read. */
    public static final String OUTBOX_ENTRY = "OUTBOX_ENTRY";
    /** Kind: an outbox entry whose applied version contradicts MySQL's history (another status at that version). */
    public static final String HISTORY_CONFLICT = "HISTORY_CONFLICT";
    /**
     * Kind: a well-formed outbox entry for an order neither MySQL nor Redis has. Orders are written to MySQL
     * before Redis, so no recorded order explains it; it is kept out of the history.
     */
    public static final String UNKNOWN_ORDER = "UNKNOWN_ORDER";
    /**
     * Kind: a well-formed outbox entry that does not follow MySQL's history (a version jump, another from-status, a
     * move out of a terminal status without an override record): no transition script wrote it.
     */
    public static final String OUT_OF_SEQUENCE = "OUT_OF_SEQUENCE";
    /**
     * Kind: a well-formed outbox entry naming an actor who never signed in to this database (nor a job of the product
     * doing its one move): no console wrote it. Only on servers that check accounts.
     */
    public static final String UNKNOWN_ACTOR = "UNKNOWN_ACTOR";
    /** Kind: an order hash in Redis whose fields are not well-formed. */
    public static final String ORDER_RECORD = "ORDER_RECORD";
    /**
     * Kind: an order id that breaks the id rule, found in a store (the cancel queue, an order row): no transition can
     * run on it, so a background job sets it aside and carries on.
     */
    public static final String MALFORMED_ID = "MALFORMED_ID";
    /**
     * Kind: the follower set an order's entries aside and Redis held a state MySQL's record does not explain; Redis was
     * put back to the record. The letter names the state Redis had and every entry set aside.
     */
    public static final String REDIS_RESTORED = "REDIS_RESTORED";

    public long id;
    public String kind;
    public String orderId;
    public Integer bucket;
    public String entryId;
    public String reason;
    public String body;
    public long createdAtMs;
    public String state;
    public String resolvedBy;
    public Long resolvedAtMs;
    public String resolution;
    /** Unique while open: the same record is set aside once. */
    public String openKey;

    /** @return the open key of an order's {@link #ORDER_RECORD} letter: one is open per order at most */
    public static String recordKey(String orderId) {
        return "order:" + orderId;
    }

    /**
     * @param kind one of the kinds above
     * @param atMs when, epoch ms
     * @return a new open letter
     */
    public static DeadLetterRow open(String kind, String orderId, Integer bucket, String entryId, String reason, String body,
                                     long atMs, String openKey) {
        DeadLetterRow d = new DeadLetterRow();
        d.kind = kind;
        d.orderId = orderId;
        d.bucket = bucket;
        d.entryId = entryId;
        d.reason = reason.length() > 500 ? reason.substring(0, 500) : reason;
        d.body = body;
        d.createdAtMs = atMs;
        d.state = "OPEN";
        d.openKey = openKey;
        return d;
    }
}
